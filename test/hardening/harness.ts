import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useGatewayStack, type GatewayStack, type GatewayStackOptions } from "../helpers/gateway-stack.js";

/**
 * The hostile corpus: requests a careless or hostile client sends, each with what it must get
 * back (status, error code), how many upstream calls it may cause (0 unless it is a legitimate,
 * merely expensive operation), and the rule that the process stays responsive while it runs
 * (`/health` answers within a second, polled in the background).
 *
 * One test file per category calls `corpus(category, cases)`; each file starts its own stack.
 * A summary per category is written to `test/hardening/.report/<category>.json` (ignored by git):
 * cases, refused before the upstream, upstream calls caused, worst latency, worst `/health`, and the
 * peak resident memory of the process (stack and tests) while they ran.
 */

export interface SentRequest {
  status: number;
  headers: Headers;
  /** the parsed JSON body, or the raw text when it is not JSON */
  body: any;
}

export interface HostileCase {
  name: string;
  /** sends the request; `stack.gateway.url` and `stack.subgraphs.*.url` are the targets */
  send: (stack: GatewayStack) => Promise<SentRequest>;
  /** runs before the statistics are reset (e.g. fetch a token): not counted, not timed */
  prepare?: (stack: GatewayStack) => Promise<void>;
  /** HTTP status expected */
  status: number;
  /** `errors[0].extensions.code` expected (any of them when a list); omit for a success */
  code?: string | string[];
  /** upstream calls allowed (default 0: refused before any upstream call) */
  maxUpstreamCalls?: number;
  /** further checks on the answer */
  check?: (answer: SentRequest, stack: GatewayStack) => void | Promise<void>;
}

export interface CorpusOptions extends GatewayStackOptions {
  /**
   * CPU ms the process may spend while a case runs (default 1000): the whole stack (gateway,
   * subgraphs, directory) runs in this process, so a case that holds its event loop (a regular
   * expression backtracking, a recursion, a parse of a huge body) shows here. CPU time, not the
   * wait of a `/health` poll: a loaded machine slows the wait, not the work
   */
  cpuBudgetMs?: number;
}

/** POST a JSON body to `url` */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SentRequest> {
  return send(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** any request, answer parsed as JSON when it is JSON */
export async function send(url: string, init: RequestInit): Promise<SentRequest> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/** POST an operation to the gateway */
export function gateway(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) {
  return (stack: GatewayStack) => post(stack.gateway.url, { query, variables }, headers);
}

/** a body from `n` repetitions of `part(i)` joined by spaces */
export function repeat(n: number, part: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => part(i)).join(" ");
}

const reportDir = join(dirname(fileURLToPath(import.meta.url)), ".report");

export function corpus(category: string, cases: HostileCase[], options: CorpusOptions = {}): void {
  const stack = useGatewayStack(options);
  const rows: Array<{ name: string; status: number; code: string | null; upstreamCalls: number; ms: number; cpuMs: number; healthMs: number }> = [];
  // the process's resident memory while the cases run (the whole stack runs in this process)
  let peakRss = 0;
  const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
  let sampler: NodeJS.Timeout | undefined;
  beforeAll(() => {
    sampleRss();
    sampler = setInterval(sampleRss, 50);
  });
  afterAll(async () => {
    clearInterval(sampler);
    const summary = {
      category,
      cases: rows.length,
      // refused: answered with an error (whatever its status) without any upstream call
      refusedBeforeUpstream: rows.filter((r) => r.upstreamCalls === 0 && r.code !== null).length,
      upstreamCalls: rows.reduce((n, r) => n + r.upstreamCalls, 0),
      worstMs: Math.max(0, ...rows.map((r) => r.ms)),
      worstCpuMs: Math.max(0, ...rows.map((r) => r.cpuMs)),
      worstHealthMs: Math.max(0, ...rows.map((r) => r.healthMs)),
      peakRssMb: Math.round(peakRss / 2 ** 20),
      rows,
    };
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(join(reportDir, `${category}.json`), JSON.stringify(summary, null, 2));
  });

  for (const c of cases) {
    it(`${category}: ${c.name}`, async () => {
      await c.prepare?.(stack);
      stack.resetStats();
      const health = pollHealth(new URL("/health", stack.gateway.url).href);
      const started = performance.now();
      const cpuAtStart = process.cpuUsage();
      let answer: SentRequest;
      let healthMs: number;
      let cpuMs: number;
      try {
        answer = await c.send(stack);
      } finally {
        const cpu = process.cpuUsage(cpuAtStart);
        cpuMs = (cpu.user + cpu.system) / 1000;
        healthMs = await health.stop();
      }
      const ms = performance.now() - started;
      const upstreamCalls = stack.stats().total;
      rows.push({ name: c.name, status: answer.status, code: answer.body?.errors?.[0]?.extensions?.code ?? null, upstreamCalls, ms: Math.round(ms), cpuMs: Math.round(cpuMs), healthMs: Math.round(healthMs) });

      expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(c.status);
      if (c.code !== undefined) {
        const codes = Array.isArray(c.code) ? c.code : [c.code];
        const got = answer.body?.errors?.[0]?.extensions?.code;
        expect(codes, JSON.stringify(answer.body).slice(0, 500)).toContain(got);
      }
      expect(upstreamCalls, "upstream calls").toBeLessThanOrEqual(c.maxUpstreamCalls ?? 0);
      // the event loop not held: the work the case cost (the /health poll's wait is reported beside it)
      expect(cpuMs, "CPU ms spent while the case ran").toBeLessThan(options.cpuBudgetMs ?? 1000);
      // nothing internal leaves the process
      const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\/work\/|file:\/\//);
      for (const sub of Object.values(stack.subgraphs)) expect(text).not.toContain(new URL(sub!.url).host);
      expect(text).not.toContain(new URL(stack.directory.url).host);
      await c.check?.(answer, stack);
    });
  }
}

/**
 * Polls `/health` every 50 ms until stopped; `stop()` answers the longest wait seen, including
 * a request still pending at the stop.
 */
export function pollHealth(url: string): { stop(): Promise<number> } {
  let running = true;
  let worst = 0;
  let pending: Promise<void> = Promise.resolve();
  let pendingSince = 0;
  const loop = (async () => {
    while (running) {
      pendingSince = performance.now();
      pending = fetch(url, { signal: AbortSignal.timeout(30_000) })
        .then((r) => r.arrayBuffer())
        .then(
          () => undefined,
          () => undefined,
        );
      await pending;
      worst = Math.max(worst, performance.now() - pendingSince);
      pendingSince = 0;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      if (pendingSince) worst = Math.max(worst, performance.now() - pendingSince);
      await loop;
      return worst;
    },
  };
}
