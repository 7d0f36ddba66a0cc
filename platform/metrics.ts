import type { ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** the name of a fetch a gateway plans, `EmployeeProfile__people__0`: its operation's name and the subgraph's */
const PLANNED_FETCH = /^(.+)__[_0-9A-Za-z-]+__\d+$/;

/**
 * Prometheus metrics (prom-client), one registry per process: `npm start` runs the gateway and the
 * three subgraphs in one process, and each of their ports answers `GET /metrics` with the whole
 * process's registry (the `component` label tells them apart). docs/observability.md lists every
 * metric and its labels.
 *
 * Every label has a bounded set of values: no id, no raw operation text. Operation names go
 * through `operationLabel` (the names of `operations/` and a capped number of others, then
 * `other`); upstream routes are templates (`/service-api/employees/{id}`).
 *
 * Other modules record through the one `processMetrics()`:
 *   processMetrics().refused("gateway", "depth")
 *   processMetrics().operations.inc({ component, operation, outcome })
 *   processMetrics().sharedStateFallbacks.inc({ use: "apq" })
 */

/** the label of an operation without a name */
export const ANONYMOUS = "anonymous";
/** the label of every name past the cap, or not a GraphQL name */
export const OTHER = "other";
/** how many distinct operation names beyond the known ones become labels (then `other`) */
export const MAX_OPERATION_NAMES = 100;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

export type Outcome = "success" | "partial" | "failure";

/** What an upstream client reports to be scraped (its ETag cache and breakers). */
export interface UpstreamGauges {
  etagEntries(): number;
  etagBytes(): number;
  /** what the reference cache holds (reference-cache.ts): entries, and the bytes of their bodies as JSON */
  heldEntries(): number;
  heldBytes(): number;
  /** each API's breaker: `closed`, `open`, `half-open` */
  breakers(): Record<string, BreakerState>;
  /** the request budget's slots per share (interactive, background), taken in the last window by this process; null without a budget */
  budget(): Record<string, { used: number; limit: number }> | null;
}
export type BreakerState = "closed" | "open" | "half-open";
/** from the least to the most open */
const BREAKER_STATES: BreakerState[] = ["closed", "half-open", "open"];

export class Metrics {
  readonly registry = new Registry();

  /** operations by component, name and outcome */
  readonly operations = new Counter({
    name: "graphql_operations_total",
    help: "GraphQL operations answered, by component, operation name and outcome (success, partial: data and errors, failure: no data)",
    labelNames: ["component", "operation", "outcome"] as const,
    registers: [this.registry],
  });
  readonly operationDuration = new Histogram({
    name: "graphql_operation_duration_seconds",
    help: "Time from the operation's receipt to its answer, by component, operation name and outcome",
    labelNames: ["component", "operation", "outcome"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({
    name: "graphql_operations_in_flight",
    help: "GraphQL operations being executed, by component",
    labelNames: ["component"] as const,
    registers: [this.registry],
  });
  /** refusals of an operation by a limit before or while it runs (operation limits, upstream budget, deadline, rate limits) */
  readonly refusals = new Counter({
    name: "graphql_refusals_total",
    help: "Operations refused by a limit, by component and limit (depth, aliases, cost, ..., upstreamBudget)",
    labelNames: ["component", "limit"] as const,
    registers: [this.registry],
  });
  readonly subgraphFetches = new Counter({
    name: "gateway_subgraph_fetches_total",
    help: "Requests the gateway sent to a subgraph, by subgraph and outcome (HTTP status, or error)",
    labelNames: ["subgraph", "status"] as const,
    registers: [this.registry],
  });
  readonly subgraphFetchDuration = new Histogram({
    name: "gateway_subgraph_fetch_duration_seconds",
    help: "Duration of the gateway's requests to a subgraph, by subgraph",
    labelNames: ["subgraph"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly upstreamRequests = new Counter({
    name: "upstream_requests_total",
    help: "HTTP attempts to the directory service, by API, method, route template, status (none: no answer) and attempt (1, 2, 3...)",
    labelNames: ["api", "method", "route", "status", "attempt"] as const,
    registers: [this.registry],
  });
  readonly upstreamNotModified = new Counter({
    name: "upstream_not_modified_total",
    help: "Conditional GETs the directory answered 304 (the ETag cache's body served), by API and route template",
    labelNames: ["api", "route"] as const,
    registers: [this.registry],
  });
  /** type: employee, employment, job-position, employee-extension; result: served, refused_events_silent (no poll pass heard lately), refused_absent, refused_expired (older than DIRECTORY_HELD_FRESH_S), refused_changed (a change heard while its request was in flight) */
  readonly upstreamHeldReads = new Counter({
    name: "upstream_held_reads_total",
    help: "Event-tagged reads looked up among the held ETag entries (DIRECTORY_HELD_FRESH_S), by type and result: served without a request, or refused (refused_events_silent, refused_absent, refused_expired, refused_changed) and sent upstream",
    labelNames: ["type", "result"] as const,
    registers: [this.registry],
  });
  /** api: current, legacy; route: the route template */
  readonly upstreamRetiringAnswers = new Counter({
    name: "upstream_retiring_answers_total",
    help: "Answers of the directory announcing their route's retirement (a Deprecation or Sunset header), by API and route template",
    labelNames: ["api", "route"] as const,
    registers: [this.registry],
  });
  // the replica features' counters (trusted documents, the shared state on Redis and its
  // fallbacks, the upstream request budget); every label has a fixed set of values, listed on each
  /** outcome: served (listed), unlisted_served (log mode), refused_unknown_document, refused_unknown_hash, refused_hash_mismatch */
  readonly trustedDocuments = new Counter({
    name: "graphql_trusted_documents_total",
    help: "Operations by trusted-document outcome (GATEWAY_TRUSTED_DOCUMENTS)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  /** use: apq, etag, budget, rate_limit, refused_tokens, events */
  readonly sharedStateFallbacks = new Counter({
    name: "shared_state_fallbacks_total",
    help: "Uses of Redis that fell back to the process's own state (Redis absent from the connection, failing or slow)",
    labelNames: ["use"] as const,
    registers: [this.registry],
  });
  /** outcome: delivered (heard from Redis, passed its check), duplicate (an id heard already), rejected (a message failing its check: dropped), local (published while Redis was unavailable: this replica only) */
  readonly changeFeedMessages = new Counter({
    name: "change_feed_messages_total",
    help: "Directory changes through the replicas' change feed (Redis pub/sub), by outcome",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  /** outcome: opened, refused_per_client, refused_replica_full, closed_slow, closed_unauthenticated (the gateway's subscriptions, gateway/subscriptions.ts) */
  readonly subscriptions = new Counter({
    name: "graphql_subscriptions_total",
    help: "The gateway's subscriptions by outcome: opened, refused_per_client (GATEWAY_SUBSCRIPTIONS_PER_CLIENT), refused_replica_full (GATEWAY_SUBSCRIPTIONS_MAX), closed_slow (the subscriber, or its group's reads, fell GATEWAY_SUBSCRIPTION_QUEUE events behind, or the replica GATEWAY_SUBSCRIPTION_REPLICA_BACKLOG), closed_unauthenticated (forward mode: the directory refused the caller's token at an event's read)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly subscriptionsOpen = new Gauge({
    name: "graphql_subscriptions_open",
    help: "Subscriptions open on this gateway replica",
    registers: [this.registry],
  });
  /** outcome: delivered, hidden (forward mode: a record the caller cannot read, or gone) */
  readonly subscriptionEvents = new Counter({
    name: "graphql_subscription_events_total",
    help: "Subscription events by outcome: delivered to the subscriber, hidden (its record not readable by the caller, or gone)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  /** state: open (a Redis command failed: the uses fall back at once), closed (a probe answered) */
  readonly sharedStateBreaker = new Counter({
    name: "shared_state_breaker_total",
    help: "Transitions of a process's Redis breaker: open (a command failed or timed out; every use falls back at once), closed (Redis answered a probe)",
    labelNames: ["state"] as const,
    registers: [this.registry],
  });
  /** use: apq, etag; result: hit, miss, rejected (an entry that failed its check: a miss) */
  readonly sharedCacheLookups = new Counter({
    name: "shared_cache_lookups_total",
    help: "Lookups of a cache shared through Redis, by use and result",
    labelNames: ["use", "result"] as const,
    registers: [this.registry],
  });
  /** share: interactive, background; outcome: sent (a slot at once), held (sent after waiting for a slot or a 429's Retry-After), refused (RATE_LIMITED) */
  readonly upstreamBudget = new Counter({
    name: "upstream_request_budget_total",
    help: "Upstream requests through DIRECTORY_REQUEST_BUDGET, by share and outcome (sent, held: sent after waiting, refused: RATE_LIMITED at once)",
    labelNames: ["share", "outcome"] as const,
    registers: [this.registry],
  });
  readonly upstreamBudgetWaiting = new Gauge({
    name: "upstream_request_budget_waiting",
    help: "Upstream requests held back now, waiting for a slot of DIRECTORY_REQUEST_BUDGET or a 429's Retry-After, by share",
    labelNames: ["share"] as const,
    registers: [this.registry],
  });

  /** mode: webhook, poll; outcome: received (published on the change feed), duplicate (an id handled already), refused_signature, refused_replay, refused_malformed */
  readonly directoryEvents = new Counter({
    name: "directory_events_total",
    help: "Events of the directory the ingestion took in, by mode (webhook, poll) and outcome (received, duplicate, refused_signature, refused_replay, refused_malformed)",
    labelNames: ["mode", "outcome"] as const,
    registers: [this.registry],
  });
  readonly directoryEventLag = new Histogram({
    name: "directory_event_lag_seconds",
    help: "From an event's occurredAt at the directory to its publication on the change feed, by mode",
    labelNames: ["mode"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  readonly tracingExportFailures = new Counter({
    name: "tracing_export_failures_total",
    help: "Span batches the OTLP exporter failed to send (OTEL_EXPORTER_OTLP_*)",
    registers: [this.registry],
  });
  readonly tracingSpansDropped = new Counter({
    name: "tracing_spans_dropped_total",
    help: "Spans lost with the batches the OTLP exporter failed to send",
    registers: [this.registry],
  });

  /** true once METRICS_PORT serves `/metrics` (metrics-port.ts): the components' own ports then answer 404 there */
  onOwnPort = false;

  private readonly upstreams = new Set<UpstreamGauges>();
  private readonly upstreamChecks = new Map<string, () => Promise<{ ready: boolean }>>();
  private readonly names = new Set<string>();
  private readonly known = new Set<string>();

  /** `defaults`: the process's own metrics (CPU, memory, event loop lag, GC); left out by unit tests */
  constructor(options: { defaults?: boolean } = {}) {
    if (options.defaults ?? true) collectDefaultMetrics({ register: this.registry });
    const upstreams = this.upstreams;
    // each a sum over the process's upstream clients, read at scrape time
    const summed = (name: string, help: string, pick: (upstream: UpstreamGauges) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set([...upstreams].reduce((n, u) => n + pick(u), 0));
        },
      });
    summed("upstream_etag_cache_entries", "Answers kept for conditional GETs, all callers together", (u) => u.etagEntries());
    summed("upstream_etag_cache_bytes", "Heap bytes of the answers kept for conditional GETs, their keys included", (u) => u.etagBytes());
    summed(
      "upstream_held_entries",
      "Reads held by the reference cache (reference data, probationary periods, legacy work contracts, legacy time data), all callers together",
      (u) => u.heldEntries(),
    );
    summed("upstream_held_bytes", "Bytes of the reads held by the reference cache, their bodies as JSON", (u) => u.heldBytes());
    const budgetOf = (pick: (slots: { used: number; limit: number }) => number) =>
      function (this: Gauge<"share">) {
        this.reset();
        const totals: Record<string, number> = {};
        for (const u of upstreams) for (const [share, slots] of Object.entries(u.budget() ?? {})) totals[share] = (totals[share] ?? 0) + pick(slots);
        for (const [share, n] of Object.entries(totals)) this.set({ share }, n);
      };
    new Gauge({
      name: "upstream_request_budget_used",
      help: "Slots of DIRECTORY_REQUEST_BUDGET this process took in the last window, by share (with Redis the replicas' sum is the tenant's)",
      labelNames: ["share"] as const,
      registers: [this.registry],
      collect: budgetOf((slots) => slots.used),
    });
    new Gauge({
      name: "upstream_request_budget_left",
      help: "Slots of DIRECTORY_REQUEST_BUDGET left in the last window as this process counts them, by share",
      labelNames: ["share"] as const,
      registers: [this.registry],
      collect: budgetOf((slots) => Math.max(0, slots.limit - slots.used)),
    });
    const upstreamChecks = this.upstreamChecks;
    new Gauge({
      name: "upstream_up",
      help: "1 when the subgraph's upstream answered its last check (token endpoint below 500, no breaker open), else 0; checked at most once per READY_CHECK_INTERVAL_MS",
      labelNames: ["component"] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        await Promise.all([...upstreamChecks].map(async ([component, check]) => this.set({ component }, (await check()).ready ? 1 : 0)));
      },
    });
    new Gauge({
      name: "upstream_breaker_state",
      help: "Each API's circuit breaker: 1 for its current state (closed, open, half-open), 0 for the others",
      labelNames: ["api", "state"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        // with several clients in one process (tests), an API is as open as its most open breaker
        const worst: Record<string, number> = {};
        for (const u of upstreams) {
          for (const [api, state] of Object.entries(u.breakers())) worst[api] = Math.max(worst[api] ?? 0, BREAKER_STATES.indexOf(state));
        }
        for (const [api, rank] of Object.entries(worst)) {
          for (const state of BREAKER_STATES) this.set({ api, state }, state === BREAKER_STATES[rank] ? 1 : 0);
        }
      },
    });
  }

  /** Scrapes an upstream client's cache and breakers until the returned function is called. */
  watchUpstream(upstream: UpstreamGauges): () => void {
    this.upstreams.add(upstream);
    return () => this.upstreams.delete(upstream);
  }

  /** Scrapes `component`'s upstream check (platform/readiness.ts) as `upstream_up` until the returned function is called. */
  watchUpstreamCheck(component: string, check: () => Promise<{ ready: boolean }>): () => void {
    this.upstreamChecks.set(component, check);
    return () => {
      if (this.upstreamChecks.get(component) === check) this.upstreamChecks.delete(component);
    };
  }

  /** Names always kept as labels (the operations frontends ship), beside the capped others. */
  knowOperations(names: Iterable<string>): void {
    for (const name of names) this.known.add(name);
  }

  /**
   * An operation name as a label: a planned fetch's name becomes its operation's; a known name,
   * or one of the first MAX_OPERATION_NAMES others, is kept; anything else is `other`.
   */
  operationLabel(name: string | null | undefined): string {
    if (name == null || name === "") return ANONYMOUS;
    const own = PLANNED_FETCH.exec(name)?.[1] ?? name;
    if (!GRAPHQL_NAME.test(own)) return OTHER;
    if (this.known.has(own) || this.names.has(own)) return own;
    if (this.names.size >= MAX_OPERATION_NAMES) return OTHER;
    this.names.add(own);
    return own;
  }

  /** One operation answered. */
  operation(component: string, name: string | null | undefined, outcome: Outcome, seconds: number): void {
    const labels = { component, operation: this.operationLabel(name), outcome };
    this.operations.inc(labels);
    this.operationDuration.observe(labels, seconds);
  }

  /**
   * An operation refused by `limit` (a name from a fixed set: the limits' own names): the operation
   * limits, the call budget and deadline, and the gateway's replica limits (`rateLimitOperations`,
   * `rateLimitWrites`, `rateLimitCost`, `refusedToken`, `trustedDocuments`). A subgraph's refusals
   * (a refused token, DIRECTORY_REQUEST_BUDGET) are counted by the upstream client under the
   * subgraph's own name (subgraphs/shared/upstream/observe.ts `refusedUpstream`).
   */
  refused(component: string, limit: string): void {
    this.refusals.inc({ component, limit });
  }

  /** The Prometheus text of the whole registry. */
  async scrape(res: ServerResponse): Promise<void> {
    const body = await this.registry.metrics();
    // no CORS header: a page of another origin cannot read it
    res.writeHead(200, { "content-type": this.registry.contentType, "content-length": String(Buffer.byteLength(body)), "cache-control": "no-store" });
    res.end(body);
  }
}

let shared: Metrics | undefined;

/** The process's registry: made on first use, then shared by every component of the process. */
export function processMetrics(): Metrics {
  return (shared ??= new Metrics());
}
