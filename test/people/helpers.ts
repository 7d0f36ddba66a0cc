import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { GraphQLResponse, Stack, StackOptions } from "../helpers/stack.js";
import { startStack } from "../helpers/stack.js";

/** POSTs to the people subgraph and expects an answer without errors. */
export async function query<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<D> {
  const response = await stack.gql<D>(stack.subgraphs.people!.url, source, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data as D;
}

/** POSTs to the people subgraph and answers the whole response (data and errors). */
export function send<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<D>> {
  return stack.gql<D>(stack.subgraphs.people!.url, source, variables);
}

/** Upstream calls of the current API served since the last reset, by route (token requests left out). */
export function apiCalls(stack: Stack): { total: number; byRoute: Record<string, number> } {
  const byRoute = Object.fromEntries(Object.entries(stack.stats().byRoute).filter(([route]) => route.includes("/service-api/")));
  return { total: Object.values(byRoute).reduce((a, b) => a + b, 0), byRoute };
}

/** Runs `fn` with fresh upstream statistics and answers the current-API calls it caused. */
export async function counting<T>(stack: Stack, fn: () => Promise<T>): Promise<{ result: T; calls: ReturnType<typeof apiCalls> }> {
  stack.resetStats();
  const result = await fn();
  return { result, calls: apiCalls(stack) };
}

/** Accent- and case-insensitive text, as the directory compares names (Đặng sorts among the d's). */
export { fold } from "../../directory/current/filters.js";

export const byNumericId = (a: { id: string }, b: { id: string }) => Number(a.id) - Number(b.id);

/** Every node of a root connection, paged with `first` until the end. */
export async function pageAll<N = any>(
  stack: Stack,
  field: string,
  selection: string,
  args: { first: number; rest?: string; variables?: Record<string, unknown>; declarations?: string },
): Promise<{ nodes: N[]; pages: number; totalCount: number | null }> {
  const nodes: N[] = [];
  let after: string | null = null;
  let pages = 0;
  let totalCount: number | null = null;
  for (;;) {
    const data: any = await query(
      stack,
      `query($after: String${args.declarations ?? ""}) { page: ${field}(first: ${args.first}, after: $after${args.rest ? `, ${args.rest}` : ""}) {
        totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${selection} } } } }`,
      { ...args.variables, after },
    );
    pages++;
    totalCount = data.page.totalCount;
    nodes.push(...data.page.edges.map((e: { node: N }) => e.node));
    if (!data.page.pageInfo.hasNextPage) return { nodes, pages, totalCount };
    expect(data.page.pageInfo.endCursor).toBe(data.page.edges.at(-1).cursor);
    after = data.page.pageInfo.endCursor;
    if (pages > 1000) throw new Error("paging does not end");
  }
}

/**
 * A stack whose upstream calls go through a recording proxy, so that a test can read the URLs the
 * subgraph asked for (the directory's statistics count routes only).
 */
export interface RecordingStack extends Stack {
  /** `GET /service-api/employees?limit=...` of every request since the last `clearUrls()` */
  urls(): string[];
  clearUrls(): void;
}

export async function startRecordingStack(options: StackOptions = {}): Promise<RecordingStack> {
  let target: URL | null = null;
  const seen: string[] = [];
  const proxy: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = request(
      // the Host header stays the proxy's, so that the directory's links point back through it
      { host: target!.hostname, port: target!.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const stack = await startStack({ subgraphs: ["people"], ...options, env: { DIRECTORY_BASE_URL: proxyUrl, ...options.env } });
  target = new URL(stack.directory.url);
  return {
    ...stack,
    urls: () => seen.map((line) => decodeURIComponent(line)),
    clearUrls: () => {
      seen.length = 0;
    },
    async close() {
      await stack.close();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
