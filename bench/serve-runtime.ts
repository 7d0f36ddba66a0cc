import { createServer } from "node:http";

/**
 * Serves a Hive Gateway runtime (bench/hive.ts, bench/mesh/serve.ts) on GATEWAY_PORT, prints
 * `<label> <url>` once it listens, and on SIGTERM or SIGINT closes the server, disposes the
 * runtime and exits.
 */
export function serveRuntime(runtime: Parameters<typeof createServer>[1] & { dispose(): unknown }, label: string): void {
  const server = createServer(runtime);
  server.listen(Number(process.env.GATEWAY_PORT), "127.0.0.1", () => console.log(`${label} http://127.0.0.1:${process.env.GATEWAY_PORT}/graphql`));
  const stop = () =>
    server.close(async () => {
      await runtime.dispose();
      process.exit(0);
    });
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
