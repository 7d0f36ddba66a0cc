// The image's HEALTHCHECK (Dockerfile): `node scripts/healthcheck.mjs [url]` exits 0 when the
// component's `/health` answers 200 within 3 s, 1 otherwise. Without a URL it checks the gateway
// (GATEWAY_PORT, default 4000); compose and Kubernetes name each component's own port. Liveness
// only: an upstream outage makes `/ready` fail, not this.
const url = process.argv[2] ?? `http://127.0.0.1:${process.env.GATEWAY_PORT || 4000}/health`;
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  process.exit(res.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
