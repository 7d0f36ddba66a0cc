import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { RunningDirectory } from "../directory/server.js";

/**
 * The dependent rounds of upstream requests a task makes: with `latencyMs` added to every request
 * of the directory, the requests fall into waves; one starting more than half the latency after
 * the previous one waited for an answer. Deterministic where a timing of the whole is not: CPU
 * time between waves on a busy machine is far below the added latency. Each wave lists its
 * requests (paths, or paths with their query when `urls` is set); the admin routes and token
 * requests are left out.
 */
export interface Rounds<T> {
  result: T;
  waves: string[][];
  /** when each wave started, ms after the task */
  startsAt: number[];
  elapsedMs: number;
}

export async function measureRounds<T>(
  directory: RunningDirectory,
  task: () => Promise<T>,
  options: { latencyMs?: number; urls?: boolean } = {},
): Promise<Rounds<T>> {
  const latency = options.latencyMs ?? 150;
  const port = String(directory.port);
  const seen: Array<{ at: number; route: string }> = [];
  const listener = (message: unknown) => {
    const { request } = message as { request: { url?: string; headers: Record<string, string | string[] | undefined> } };
    const url = request.url ?? "";
    const host = request.headers.host;
    if (typeof host !== "string" || !host.endsWith(`:${port}`) || url.startsWith("/_admin/") || url.includes("/connect/token")) return;
    seen.push({ at: performance.now(), route: options.urls ? decodeURIComponent(url) : url.split("?")[0]!.replace(/\/\d+$/, "/{id}") });
  };
  subscribe("http.server.request.start", listener);
  directory.faults.set({ latencyMs: latency });
  const started = performance.now();
  try {
    const result = await task();
    const elapsedMs = performance.now() - started;
    const waves: string[][] = [];
    const startsAt: number[] = [];
    let last = -Infinity;
    for (const s of seen) {
      if (s.at - last > latency / 2) {
        waves.push([]);
        startsAt.push(s.at - started);
      }
      waves[waves.length - 1]!.push(s.route);
      last = s.at;
    }
    return { result, waves, startsAt, elapsedMs };
  } finally {
    directory.faults.clear();
    unsubscribe("http.server.request.start", listener);
  }
}
