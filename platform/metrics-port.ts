import { Environment } from "./config.js";
import { listen, sendJson, type HttpListener } from "./http.js";
import type { Logger } from "./log.js";
import { processMetrics } from "./metrics.js";

/**
 * `/metrics` on a port of its own (METRICS_PORT, docs/deploying.md#metrics): a Service or Ingress
 * that publishes the component's port does not publish its metrics, and a network policy can open
 * the metrics port to the monitoring namespace alone. Unset, every port of the process answers
 * `/metrics`, as under `npm start`.
 */

/** METRICS_PORT (every process run alone, `npm start`): unset for none (the metrics on every port); 0 for a free port. */
export function metricsPort(env: NodeJS.ProcessEnv = process.env): number | null {
  const e = new Environment(env);
  return e.text("METRICS_PORT") === undefined ? null : e.port("METRICS_PORT", 0);
}

/** Serves the process's registry at `/metrics` on `port`, and takes it off the process's other ports. */
export async function serveMetrics(port: number, host: string, logger: Logger): Promise<HttpListener> {
  const metrics = processMetrics();
  const listener = await listen(
    async (req, res) => {
      if ((req.url ?? "/").split("?")[0] === "/metrics") return metrics.scrape(res);
      sendJson(res, 404, { error: "not found: this port serves /metrics only" });
    },
    { port, host, logger, traced: false },
  ).catch((err: unknown) => {
    // named as the metrics port: the process's own port is fine, and its start would say so
    throw new MetricsPortError(port, err instanceof Error ? err.message : String(err));
  });
  metrics.onOwnPort = true;
  return listener;
}

/** The metrics port could not be listened on (taken, not allowed): says which setting. */
export class MetricsPortError extends Error {
  readonly setting = "METRICS_PORT";
  constructor(
    readonly port: number,
    cause: string,
  ) {
    super(`the metrics port METRICS_PORT=${port} cannot be listened on: ${cause}`);
  }
}
