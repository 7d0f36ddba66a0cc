import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadGatewayConfig } from "../gateway/config.js";
import { startGateway, type RunningGateway } from "../gateway/gateway.js";
import { startDirectory, type RunningDirectory } from "../directory/server.js";
import { Logger } from "../platform/log.js";
import type { RunningSubgraph } from "../subgraphs/shared/graphql/server.js";
import { startSubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";
import { loadUpstreamConfig, Upstream } from "../subgraphs/shared/upstream/index.js";
import { loadSubgraphModule, postGraphQL, type GraphQLResponse, type SubgraphName } from "./stack.js";
import type { ChangeFeed } from "../subgraphs/shared/events/index.js";

/**
 * The replica test bed (docs/deploying.md#running-several-replicas): one in-process directory, and over it
 * N replicas, each an upstream client, the three subgraphs and a gateway routed to them, all
 * configured alike (the same SUBGRAPH_CURSOR_SECRET, the same REDIS_URL when given); and a real
 * redis-server from Debian on an ephemeral port in a temporary directory, which a test may kill
 * and start again.
 */

/** the redis-server binary, or null when it is not installed */
export function redisServerPath(): string | null {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path !== "" ? path : null;
}

/** a loopback port that was free a moment ago (for an address a component must know before it listens) */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningRedis {
  url: string;
  port: number;
  /** SIGKILL: as a crash, nothing flushed */
  kill(): Promise<void>;
  /** starts it again on the same port, empty */
  restart(): Promise<void>;
  /** SIGSTOP: the process stops answering, its connections stay open (a stuck Redis) */
  freeze(): void;
  /** SIGCONT: it answers again, what it was sent meanwhile included */
  thaw(): void;
  close(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const binary = redisServerPath();
  if (binary === null) throw new Error("redis-server is not installed");
  const dir = mkdtempSync(join(tmpdir(), "directory-graph-redis-"));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out.slice(-500)}`)), 10_000);
      child!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`));
      });
    });
  };
  const stop = async () => {
    const running = child as ChildProcess | null;
    if (running === null || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: stop,
    restart: start,
    freeze: () => void (child as ChildProcess | null)?.kill("SIGSTOP"),
    thaw: () => void (child as ChildProcess | null)?.kill("SIGCONT"),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Replica {
  upstream: Upstream;
  /** the replica's change feed, its upstream client's (Redis pub/sub with REDIS_URL): tests publish changes on it */
  feed: ChangeFeed;
  subgraphs: Record<SubgraphName, RunningSubgraph>;
  gateway: RunningGateway;
  query<D = any>(source: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse<D>>;
}

export interface ReplicaBed {
  directory: RunningDirectory;
  replicas: Replica[];
  close(): Promise<void>;
}

const SUBGRAPHS: SubgraphName[] = ["people", "organisation", "legacy-time"];

export async function startReplicas(options: { count?: number; redisUrl?: string | null; env?: Record<string, string>; gatewayEnv?: Record<string, string> } = {}): Promise<ReplicaBed> {
  const directory = await startDirectory({ limits: { requests: 0 }, employees: 300, today: "2026-06-15" });
  const replicas: Replica[] = [];
  const silent = new Logger("replica", "silent");
  const env: Record<string, string> = {
    DIRECTORY_BASE_URL: directory.url,
    DIRECTORY_REQUEST_BUDGET: "off",
    DIRECTORY_CLIENT_ID: "demo-client",
    DIRECTORY_CLIENT_SECRET: "demo-secret",
    DIRECTORY_API_KEY: "demo-api-key",
    SUBGRAPH_CURSOR_SECRET: "replica-test-bed-cursor-secret",
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.env,
  };
  const bed: ReplicaBed = {
    directory,
    replicas,
    async close() {
      for (const replica of replicas) {
        await replica.gateway.close();
        await Promise.all(Object.values(replica.subgraphs).map((s) => s.close()));
        await replica.upstream.close();
      }
      await directory.close();
    },
  };
  try {
    for (let i = 0; i < (options.count ?? 2); i++) {
      const upstream = new Upstream(loadUpstreamConfig(env), silent);
      const subgraphs = {} as Record<SubgraphName, RunningSubgraph>;
      for (const name of SUBGRAPHS) subgraphs[name] = await startSubgraphModule(await loadSubgraphModule(name), { upstream, port: 0, logger: silent });
      const gateway = await startGateway(
        loadGatewayConfig({
          ...env,
          GATEWAY_PORT: "0",
          PEOPLE_URL: subgraphs.people.url,
          ORGANISATION_URL: subgraphs.organisation.url,
          LEGACY_TIME_URL: subgraphs["legacy-time"].url,
          ...options.gatewayEnv,
        }),
        silent,
      );
      replicas.push({ upstream, feed: upstream.changes, subgraphs, gateway, query: (source, variables, headers) => postGraphQL(gateway.url, source, variables, headers) });
    }
  } catch (err) {
    await bed.close();
    throw err;
  }
  return bed;
}

