import "reflect-metadata";
import { loadGatewayConfig } from "../gateway/config.js";
import { startGateway, type RunningGateway } from "../gateway/gateway.js";
import { startDirectory, type RunningDirectory } from "../directory/server.js";
import type { RunningSubgraph } from "../subgraphs/shared/graphql/server.js";
import { startSubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";
import { Logger } from "../subgraphs/shared/log.js";
import { loadUpstreamConfig, Upstream } from "../subgraphs/shared/upstream/index.js";
import { subgraphModules } from "../scripts/subgraphs.js";

/**
 * The embedded default of `npm start`, in this process, on ephemeral ports and without logs:
 * the in-process directory, one upstream client, the three subgraphs and the gateway (from the
 * committed supergraph).
 */

export interface BenchStack {
  directory: RunningDirectory;
  gateway: RunningGateway;
  close(): Promise<void>;
}

export async function startBenchStack(employees: number, today: string): Promise<BenchStack> {
  const directory = await startDirectory({ employees, today });
  const upstream = new Upstream(
    loadUpstreamConfig({
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
    }),
  );
  const subgraphs: RunningSubgraph[] = [];
  const urls: Record<string, string> = {};
  for (const module of await subgraphModules()) {
    const running = await startSubgraphModule(module, { upstream, port: 0, logger: new Logger(module.name, "silent") });
    subgraphs.push(running);
    urls[module.name] = running.url;
  }
  const gateway = await startGateway(
    loadGatewayConfig({
      GATEWAY_PORT: "0",
      PEOPLE_URL: urls.people,
      ORGANISATION_URL: urls.organisation,
      LEGACY_TIME_URL: urls["legacy-time"],
      LOG_LEVEL: "silent",
    }),
  );
  return {
    directory,
    gateway,
    async close() {
      await gateway.close();
      await Promise.all(subgraphs.map((s) => s.close()));
      await upstream.close();
      await directory.close();
    },
  };
}
