import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { startDirectory, type DirectoryOptions, type RunningDirectory } from "../directory/server.js";
import type { RunningSubgraph } from "../subgraphs/shared/graphql/server.js";
import { loadOperationLimits } from "../platform/limits.js";
import type { ChangeFeed } from "../subgraphs/shared/events/index.js";
import { startSubgraphModule, type SubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";
import { loadUpstreamConfig, Upstream } from "../subgraphs/shared/upstream/index.js";
import type { Logger } from "../platform/log.js";

/** The day the test company is generated for: every suite that starts a stack shares it. */
export const TODAY = "2026-06-15";

/**
 * Starts what a test needs on loopback with ephemeral ports: the in-process directory service,
 * an upstream client configured against it, and the requested subgraphs — all over real HTTP.
 */

export type SubgraphName = "people" | "organisation" | "legacy-time";

const modules: Record<SubgraphName, () => Promise<SubgraphModule>> = {
  people: async () => (await import("../subgraphs/people/index.js")).subgraph,
  organisation: async () => (await import("../subgraphs/organisation/index.js")).subgraph,
  "legacy-time": async () => (await import("../subgraphs/legacy-time/index.js")).subgraph,
};

export async function loadSubgraphModule(name: SubgraphName): Promise<SubgraphModule> {
  return modules[name]();
}

export interface GraphQLResponse<D = any> {
  status: number;
  data?: D;
  errors?: Array<{ message: string; path?: (string | number)[]; extensions?: Record<string, any> }>;
  extensions?: Record<string, unknown>;
}

export interface Stack {
  directory: RunningDirectory;
  upstream: Upstream;
  subgraphs: Partial<Record<SubgraphName, RunningSubgraph>>;
  /** the upstream client's change feed, which the subgraphs serve subscriptions from: tests publish changes on it */
  feed: ChangeFeed;
  /** POST a GraphQL operation to `url` (a subgraph's or a gateway's) */
  gql<D = any>(url: string, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse<D>>;
  /** upstream requests served by the directory since the last reset */
  stats(): { total: number; byRoute: Record<string, number> };
  resetStats(): void;
  /** an access token of the directory for a demo client */
  token(clientId?: "demo-client" | "demo-limited"): Promise<string>;
  close(): Promise<void>;
}

export interface StackOptions {
  subgraphs?: SubgraphName[];
  directory?: DirectoryOptions;
  /** environment overrides for the upstream configuration (e.g. DIRECTORY_AUTH=forward) */
  env?: Record<string, string>;
  secret?: string;
  /** the subgraphs' logger, or each one's (tests read the lines they log, e.g. the audit lines of writes) */
  logger?: Logger | ((subgraph: SubgraphName) => Logger);
  /** GRAPH_PREFIX of the subgraphs (and of the gateway, in a gateway stack) */
  prefix?: string;
  /** SUBSCRIPTION_QUEUE of the subgraphs */
  subscriptionQueue?: number;
  /** a subgraph's own port, where its address must be known before it starts (DIRECTORY_EVENTS_PUBLIC_URL); default ephemeral */
  ports?: Partial<Record<SubgraphName, number>>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const directory = await startDirectory({ limits: { requests: 0 }, employees: 300, today: TODAY, ...options.directory });
  const upstream = new Upstream(
    loadUpstreamConfig({
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_REQUEST_BUDGET: "off",
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
      DIRECTORY_TIMEOUT_MS: "5000",
      ...options.env,
    }),
  );
  const subgraphs: Partial<Record<SubgraphName, RunningSubgraph>> = {};
  for (const name of options.subgraphs ?? []) {
    subgraphs[name] = await startSubgraphModule(await loadSubgraphModule(name), {
      upstream,
      port: options.ports?.[name] ?? 0,
      secret: options.secret ?? null,
      // GRAPHQL_MAX_* among the overrides set the subgraphs' operation limits
      limits: loadOperationLimits(options.env ?? {}),
      ...(options.logger ? { logger: typeof options.logger === "function" ? options.logger(name) : options.logger } : {}),
      prefix: options.prefix ?? null,
      ...(options.subscriptionQueue ? { subscriptionQueue: options.subscriptionQueue } : {}),
    });
  }
  return {
    directory,
    upstream,
    subgraphs,
    feed: upstream.changes,
    gql: postGraphQL,
    stats: () => directory.stats.snapshot(),
    resetStats: () => directory.stats.reset(),
    token: (clientId = "demo-client") => directoryToken(directory.url, clientId),
    async close() {
      await Promise.all(Object.values(subgraphs).map((s) => s!.close()));
      await upstream.close();
      await directory.close();
    },
  };
}

export async function postGraphQL<D = any>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<D>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as Omit<GraphQLResponse<D>, "status">;
  return { status: res.status, ...body };
}

/** A token of the directory's demo clients (the test and demo hooks of docs/decisions.md), with a narrower `scope` when given. */
export async function directoryToken(
  baseUrl: string,
  clientId: "demo-client" | "demo-limited" = "demo-client",
  scope?: string,
): Promise<string> {
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: "demo-secret" });
  if (scope !== undefined) form.set("scope", scope);
  const res = await fetch(`${baseUrl}/connect/token`, { method: "POST", body: form });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The request headers (and URLs, in `urls` at the same index) the directory on `port()` receives (its admin routes left out), until `stop()`. */
export function watchDirectoryRequests(port: () => number): { headers: Array<Record<string, string | string[] | undefined>>; urls: string[]; stop(): void } {
  const headers: Array<Record<string, string | string[] | undefined>> = [];
  const urls: string[] = [];
  const onRequest = (message: unknown) => {
    const { request } = message as { request: { url?: string; headers: Record<string, string | string[] | undefined> } };
    if (request.headers.host === `127.0.0.1:${port()}` && !request.url?.startsWith("/_admin/")) {
      headers.push(request.headers);
      urls.push(request.url ?? "");
    }
  };
  subscribe("http.server.request.start", onRequest);
  return { headers, urls, stop: () => unsubscribe("http.server.request.start", onRequest) };
}

/** The upstream calls of the statistics, the token requests left out (a process fetches its token once). */
export function upstreamCalls(stats: { byRoute: Record<string, number> }): number {
  return Object.entries(stats.byRoute)
    .filter(([route]) => !route.includes("/connect/token"))
    .reduce((sum, [, n]) => sum + n, 0);
}
