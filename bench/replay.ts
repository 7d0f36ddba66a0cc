import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The subgraphs' recorded answers, served again: the back end of the benchmark's gateway-bound
 * throughput runs (bench/run.ts). Over the live subgraphs every gateway waits on the one process
 * that runs the directory and the three subgraphs, saturated at 8 clients, so ops/s there says
 * what that process costs per operation, alike for every gateway. Here each subgraph request is
 * answered from memory, and what bounds ops/s is the gateway's own CPU: throughput per gateway.
 *
 * BENCH_REPLAY_TARGETS: `{"people": "http://…/graphql", …}`. For each subgraph, a server on a free
 * loopback port; a request is keyed by its method, path, caller (`authorization`) and body. The
 * first one of a key is sent to the live subgraph, and its answer, if a 200, is kept and served for
 * that key from then on; anything else is passed through and not kept. Nothing else of a request
 * is read: the answers of the benchmark's reads depend on their body alone. Prints one line
 * `bench-replay {json}` with the URLs to point a gateway at, then, on SIGTERM, `bench-replay
 * served {json}` (kept and passed-through requests per subgraph) and exits.
 *
 * Written by hand (about 40 lines): the HTTP record/replay libraries record to files for tests,
 * with matchers and a cost per request this measure would then include.
 */

const targets = JSON.parse(process.env.BENCH_REPLAY_TARGETS ?? "{}") as Record<string, string>;
/** hop-by-hop headers and what the body fixes: not forwarded to the live subgraph */
const NOT_FORWARDED = new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding"]);
const served: Record<string, { replayed: number; passed: number }> = {};
const urls: Record<string, string> = {};

for (const [name, target] of Object.entries(targets)) {
  const kept = new Map<string, { type: string; body: Buffer }>();
  const count = (served[name] = { replayed: 0, passed: 0 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const key = `${req.method} ${req.url} ${req.headers.authorization ?? ""} ${body.toString("latin1")}`;
      const hit = kept.get(key);
      if (hit) {
        count.replayed++;
        res.writeHead(200, { "content-type": hit.type, "content-length": hit.body.length }).end(hit.body);
        return;
      }
      count.passed++;
      void pass(target, req.method!, req.url!, req.headers, body).then(
        ({ status, type, answer }) => {
          if (status === 200) kept.set(key, { type, body: answer });
          res.writeHead(status, { "content-type": type, "content-length": answer.length }).end(answer);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  urls[name] = new URL(new URL(target).pathname, `http://127.0.0.1:${(server.address() as AddressInfo).port}`).href;
}

async function pass(target: string, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) {
  const forwarded = Object.entries(headers).filter(([k]) => !NOT_FORWARDED.has(k)).map(([k, v]) => [k, String(v)] as [string, string]);
  const res = await fetch(new URL(path, target), { method, headers: forwarded, body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body) });
  return { status: res.status, type: res.headers.get("content-type") ?? "application/json", answer: Buffer.from(await res.arrayBuffer()) };
}

console.log(`bench-replay ${JSON.stringify(urls)}`);
process.once("SIGTERM", () => {
  console.log(`bench-replay served ${JSON.stringify(served)}`);
  process.exit(0);
});
