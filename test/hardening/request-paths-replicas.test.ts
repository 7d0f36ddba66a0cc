import { beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../gateway/trusted-documents.js";
import { redisAvailable, useReplicasWithRedis, type ReplicaBed } from "../helpers/replicas.js";
import { directoryToken, upstreamCalls } from "../helpers/stack.js";

/**
 * The checks of every request path across two gateway replicas sharing Redis, in forward mode
 * (docs/security.md): a hash registered on one replica and run on the other meets the per-client
 * limits, whatever the spelling of the token; the checks of new tokens from one address are one
 * budget on both; a token refused on one is refused on the other at no call, in any spelling.
 */

const withRedis = redisAvailable();

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const NAMES = `query Names($id: ID!) { employee(id: $id) { id givenName } }`;
const apq = { persistedQuery: { version: 1, sha256Hash: sha256(NAMES) } };

describe.skipIf(!withRedis)("two gateway replicas on Redis, forward mode", () => {
  const replicas = useReplicasWithRedis({
    env: { DIRECTORY_AUTH: "forward", REDIS_KEY_PREFIX: "test-paths:" },
    gatewayEnv: { GATEWAY_RATE_LIMIT: "10", GATEWAY_UNVERIFIED_TOKEN_LIMIT: "3", GATEWAY_TRUSTED_PROXIES: "127.0.0.1, ::1" },
  });
  let bed: ReplicaBed;
  let gateways: string[];
  beforeAll(() => {
    bed = replicas.bed;
    gateways = bed.replicas.map((r) => r.gateway.url);
  });

  it("a hash registered on A, run by hash on A and B in 4 spellings of one token: 10 of 12 served under 10 (was 12/12)", async () => {
    const registrar = await directoryToken(bed.directory.url);
    const registered = await post(gateways[0]!, { query: NAMES, variables: { id: "10" }, extensions: apq }, { authorization: `Bearer ${registrar}`, "x-forwarded-for": "192.0.2.50" });
    expect(registered.body.errors).toBeUndefined();
    const token = await directoryToken(bed.directory.url);
    const spellings = [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`, `bEaReR\t${token}`];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await post(gateways[i % 2]!, { variables: { id: "10" }, extensions: apq }, { authorization: spellings[i % 4]!, "x-forwarded-for": "192.0.2.51" });
      statuses.push(answer.status);
      if (answer.status === 200) expect(answer.body.data.employee.id).toBe("10");
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
  });

  it("6 junk tokens from one address over both replicas: 3 directory calls, then 429 (was 6 calls, no 429)", async () => {
    bed.directory.stats.reset();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(gateways[i % 2]!, { query: NAMES, variables: { id: "10" } }, { authorization: `Bearer junk-over-replicas-${i}`, "x-forwarded-for": "192.0.2.52" })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    expect(upstreamCalls(bed.directory.stats.snapshot())).toBe(3);
  });

  it("a token refused on A is refused on B in any spelling, at no further call (was a call per spelling)", async () => {
    bed.directory.stats.reset();
    const spellings = ["Bearer refused-over-replicas", "bearer refused-over-replicas", "BEARER  refused-over-replicas", " Bearer\trefused-over-replicas "];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(gateways[i % 2]!, { variables: { id: "10" }, extensions: apq }, { authorization: spellings[i % 4]!, "x-forwarded-for": `192.0.2.${60 + i}` })).status);
    expect(statuses).toEqual(Array(8).fill(401));
    expect(upstreamCalls(bed.directory.stats.snapshot())).toBe(1);
  });
});
