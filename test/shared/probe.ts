import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { startSubgraphModule, type RunningSubgraph } from "../../subgraphs/shared/graphql/index.js";
import { Logger, type LogLevel } from "../../platform/log.js";
import { Upstream, type UpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { configFor } from "../upstream/fixture.js";
import { probeSubgraph } from "./probe-subgraph.js";

export { INTERNAL_SECRET, PROBE_T9N, probeSubgraph } from "./probe-subgraph.js";

/** Log lines written by a probe's logger, parsed. */
export interface LogLine {
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

export interface Probe {
  directory: RunningDirectory;
  upstream: Upstream;
  subgraph: RunningSubgraph;
  /** what the subgraph logged (every level) */
  logs: LogLine[];
  /** the raw log text, to search for things that must never be logged */
  logText(): string;
  close(): Promise<void>;
}

/** The probe subgraph served over HTTP against an in-process directory, with its log collected. */
export async function startProbe(options: { secret?: string; upstream?: Partial<UpstreamConfig> } = {}): Promise<Probe> {
  const directory = await startDirectory({ limits: { requests: 0 }, employees: 60, today: "2026-06-15" });
  const upstream = new Upstream(configFor(directory.url, { retries: 0, ...options.upstream }));
  // the token is fetched now, so that faults injected by a test hit only the calls under test
  if (upstream.config.auth === "service") await upstream.session().current.page("/employees", { limit: 1 });
  const raw: string[] = [];
  const logger = new Logger("probe", "debug", (line) => raw.push(line));
  const subgraph = await startSubgraphModule(probeSubgraph, { upstream, port: 0, secret: options.secret ?? null, logger });
  return {
    directory,
    upstream,
    subgraph,
    get logs() {
      return raw.map((line) => JSON.parse(line) as LogLine);
    },
    logText: () => raw.join("\n"),
    async close() {
      await subgraph.close();
      await upstream.close();
      await directory.close();
    },
  };
}
