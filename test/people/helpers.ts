import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import type { Stack, StackOptions } from "../helpers/stack.js";
import { startStack } from "../helpers/stack.js";
import { subgraphClient } from "../helpers/subgraph.js";

const people = subgraphClient("people");

/** POSTs to the people subgraph and expects an answer without errors. */
export const query = people.query;

/** POSTs to the people subgraph and answers the whole response (data and errors). */
export const send = people.send;

export { apiCalls, counting } from "../helpers/subgraph.js";

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

/** The ids a root list answers for `filter`, read to the last page, sorted. */
export async function filteredIds(stack: Stack, field: string, filterType: string, filter: Record<string, unknown>): Promise<string[]> {
  const { nodes } = await pageAll<{ id: string }>(stack, field, "id", {
    first: 100,
    rest: "filter: $filter",
    declarations: `, $filter: ${filterType}`,
    variables: { filter },
  });
  return nodes.map((n) => n.id).sort();
}

export const idsOf = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id).sort();

/**
 * A filter's answer equals the expected ids, which keep some but not all of the `total` items:
 * a filter that kept everything or nothing would prove nothing.
 */
export function expectProperSubset(result: string[], expected: string[], total: number): void {
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThan(total);
  expect(result).toEqual(expected);
}

/** The most common value of `key` among the rows: a value that selects more than one of them. */
export function mostCommon<Row>(rows: readonly Row[], key: (r: Row) => string | null | undefined): string {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const k = key(r);
    if (k !== null && k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
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

/**
 * The filters every dated list shares (employments, job positions): `status`, `startsOn`,
 * `startsOnBetween` and `endsOn` (null or a date), each checked against the rows read whole.
 */
export function datedListFilterTests<R extends { id: string; status: string; startsOn: string; endsOn: string | null }>(
  noun: string,
  rows: () => R[],
  filtered: (filter: Record<string, unknown>) => Promise<string[]>,
  sample: { startIndex: number; startsBetween: { from: string; to: string }; withoutEnd: string },
): void {
  const subset = (result: string[], expected: R[]) => expectProperSubset(result, idsOf(expected), rows().length);
  it.each(["ACTIVE", "UPCOMING", "DEACTIVATED"])(`status %s keeps ${noun} with that status`, async (status) => {
    subset(await filtered({ status: [status] }), rows().filter((r) => r.status === status));
  });
  it("startsOn is an equality on the start date", async () => {
    const date = rows()[sample.startIndex]!.startsOn;
    expect(await filtered({ startsOn: date })).toEqual(idsOf(rows().filter((r) => r.startsOn === date)));
  });
  it("startsOnBetween is an inclusive range", async () => {
    const range = sample.startsBetween;
    subset(await filtered({ startsOnBetween: range }), rows().filter((r) => r.startsOn >= range.from && r.startsOn <= range.to));
  });
  it(`an explicit null endsOn selects ${sample.withoutEnd}`, async () => {
    subset(await filtered({ endsOn: null }), rows().filter((r) => r.endsOn === null));
  });
  it("endsOn with a date is an equality on the end date", async () => {
    const date = rows().find((r) => r.endsOn)!.endsOn!;
    expect(await filtered({ endsOn: date })).toEqual(idsOf(rows().filter((r) => r.endsOn === date)));
  });
}
