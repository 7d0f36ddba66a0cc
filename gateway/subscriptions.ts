import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getHeapStatistics } from "node:v8";
import { Readable } from "node:stream";
import { HeaderMap, type ApolloServer, type HTTPGraphQLRequest } from "@apollo/server";
import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getOperationAST,
  GraphQLError,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  isObjectType,
  Kind,
  parse,
  print,
  type NameNode,
  type SelectionNode,
  type SelectionSetNode,
  validate,
  visit,
} from "graphql";
import { getArgumentValues, getVariableValues } from "graphql/execution/values.js";
import { createClient } from "graphql-sse";
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { createHandler } from "graphql-sse/lib/use/http";
import { WebSocketServer, type WebSocket } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { Environment } from "../platform/config.js";
import { writeReconnectHint } from "../platform/lifecycle.js";
import { canonicalAuthorization } from "../platform/credentials.js";
import { ErrorCode, errorBody } from "../platform/error-codes.js";
import { BodyTooLargeError, MAX_BODY_BYTES, readBody, sendBodyTooLarge, sendJson, type Refusal } from "../platform/http.js";
import type { RequestedOperation, OperationLimitError } from "../platform/limits.js";
import type { Logger } from "../platform/log.js";
import { processMetrics } from "../platform/metrics.js";
import { tracer, tracingOn } from "../platform/request-scope.js";
import { ROOT_CONTEXT, SpanStatusCode } from "@opentelemetry/api";
import type { GatewayContext } from "./subgraph-source.js";

/** the gateway's path of subscriptions over GraphQL over SSE (graphql-sse); graphql-ws is served on `/graphql` by upgrade */
export const GATEWAY_STREAM_PATH = "/graphql/stream";
/** the subgraph's path of its subscriptions (its server's STREAM_PATH) */
const SUBGRAPH_STREAM_PATH = "/graphql/stream";
/** the facts of an event the gateway asks the owning subgraph for: what identifies the node, and the event's own fields */
const FACTS = "eventId topic occurredAt id previousAttributes";
/** how long one event's node read is shared among its subscribers */
const SHARED_READ_MS = 10_000;
/** a socket with this much unsent is a subscriber that does not keep up */
const CONGESTED_BYTES = 1 << 20;

export interface SubscriptionSettings {
  /** GATEWAY_SUBSCRIPTIONS_PER_CLIENT (default 20): open subscriptions per client (verified token, else address) and replica */
  perClient: number;
  /** GATEWAY_WS_CONNECTIONS_PER_CLIENT (default 20): open graphql-ws connections per client and replica */
  connectionsPerClient: number;
  /** GATEWAY_SUBSCRIPTION_HEARTBEAT_MS (default 15000): a comment (SSE) or ping (WebSocket) this often; 0: none */
  heartbeatMs: number;
  /** GATEWAY_SUBSCRIPTION_QUEUE (default 100): events a subscriber may fall behind before it is closed as too slow */
  queue: number;
  /** GATEWAY_SUBSCRIPTION_REPLICA_BACKLOG (default 1000): events heard and not yet read, in all of the replica's groups, before the groups an event would join are closed as too slow */
  replicaBacklog: number;
  /** GATEWAY_SUBSCRIPTIONS_MAX (default: derived from the heap limit, subscriptionCapOf): open subscriptions per replica; past it a subscription is refused, the replica stays up */
  max: number;
}

/** the heap a subscription is allowed (its subscriber, queue and transport state), and the share of the heap all of them may take */
export const SUBSCRIPTION_HEAP_BYTES = 32 * 1024;
export const SUBSCRIPTION_HEAP_SHARE = 0.5;

/** the default cap of open subscriptions per replica: a share of V8's heap limit (set by --max-old-space-size, or by V8 from the container's memory) over a subscription's budget */
export function subscriptionCapOf(heapLimitBytes: number = getHeapStatistics().heap_size_limit): number {
  return Math.max(1, Math.floor((heapLimitBytes * SUBSCRIPTION_HEAP_SHARE) / SUBSCRIPTION_HEAP_BYTES));
}

export function loadSubscriptionSettings(env: NodeJS.ProcessEnv = process.env): SubscriptionSettings {
  const e = new Environment(env);
  return {
    perClient: e.integer("GATEWAY_SUBSCRIPTIONS_PER_CLIENT", 20, 1, 100_000),
    connectionsPerClient: e.integer("GATEWAY_WS_CONNECTIONS_PER_CLIENT", 20, 1, 100_000),
    heartbeatMs: e.integer("GATEWAY_SUBSCRIPTION_HEARTBEAT_MS", 15_000, 0, 3_600_000),
    queue: e.integer("GATEWAY_SUBSCRIPTION_QUEUE", 100, 1, 100_000),
    replicaBacklog: e.integer("GATEWAY_SUBSCRIPTION_REPLICA_BACKLOG", 1000, 1, 1_000_000),
    max: e.integer("GATEWAY_SUBSCRIPTIONS_MAX", subscriptionCapOf(), 1, 10_000_000),
  };
}

export interface SubscriptionDeps {
  apollo: ApolloServer<GatewayContext>;
  /** the API schema the gateway serves */
  schema: () => GraphQLSchema | undefined;
  /** the gates every query passes (gateway.ts): trusted documents, operation limits, rate limits */
  admit: (request: HTTPGraphQLRequest) => Promise<Refusal | null>;
  checkLimits: (operation: RequestedOperation) => OperationLimitError | null;
  meter: (operation: RequestedOperation, req: IncomingMessage) => Promise<Refusal | null>;
  /** the client every per-client limit counts (rate-limits.ts: a verified token, else the proxy-aware address) */
  clientOf: (req: IncomingMessage) => string;
  /** the public origin the file links of a subscriber's events name, as a query's of the same request (GATEWAY_PUBLIC_URL, else the request's own) */
  filesBase: (req: IncomingMessage) => string;
  /** the GraphQL URL of the subgraph that owns the Subscription type */
  ownerUrl: string;
  secret: string | null;
  forward: boolean;
  deadlineMs: number;
  settings: SubscriptionSettings;
  logger: Logger;
}

/** One subscription request as it arrives by either transport. */
interface Requested {
  body: Record<string, unknown>;
  req: IncomingMessage;
  authorization: string | undefined;
  /** whether the transport's socket holds more than a subscriber should be behind */
  congested: () => boolean;
}

type Opened = { refused: ExecutionResult } | { stream: AsyncIterableIterator<ExecutionResult> };

/**
 * Subscriptions for frontends (docs/graph.md#subscriptions). @apollo/gateway executes no
 * subscription, so the gateway does it in three steps, each through what queries already use:
 *
 * 1. the subscription passes the gates of every query, in the same order: trusted documents
 *    (a hash or documentId filled in, an unlisted document refused in enforce mode), the operation
 *    limits and cost on the whole document, validation against the API schema, the per-client rate
 *    limits, the credentials in forward mode; then the per-client count of open subscriptions;
 * 2. it joins the replica's one stream of the owning subgraph for its root field and filters (a
 *    hub: the subgraph secret, and the caller's credentials in forward mode), asking only the
 *    event's facts (the changed record's id, topic, time, previous values);
 * 3. per event and group (the subscribers of one document, variables and visibility), the node is
 *    read once through the gateway's own query path (`apollo.executeOperation`: its plugins, its
 *    query plan across subgraphs), the client's document executed once over the facts and that
 *    node, and the one result handed to every subscriber of the group.
 *
 * In forward mode, an event whose record the caller cannot read (its node comes back null and it
 * is not a deletion) is not delivered: its facts would tell of a record the caller may not see.
 */
export function subscriptionService(deps: SubscriptionDeps) {
  const open = new Set<AsyncIterableIterator<ExecutionResult>>();
  const perClient = new Map<string, number>();
  /** each event's node reads in flight or just done, shared by the subscribers asking the same (resolveEvent) */
  const reads = new Map<string, Promise<EventRead | null>>();
  /** the replica's upstream streams, one per root field and filters (and caller, in forward mode) */
  const hubs = new Map<string, Hub>();
  /** events taken from the upstream streams and not yet read, in all groups */
  let backlog = 0;
  const metrics = processMetrics();
  let draining = false;

  async function subscribe(requested: Requested): Promise<Opened> {
    const refuse = (message: string, code: ErrorCode, extra: Record<string, unknown> = {}): Opened => ({ refused: { data: null, errors: [new GraphQLError(message, { extensions: { code, ...extra } })] } });
    if (draining) return refuse("The gateway is shutting down: subscribe again", ErrorCode.UPSTREAM_UNAVAILABLE);
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(requested.req.headers)) if (typeof value === "string") headers.set(key, value);
    headers.set("content-type", "application/json");
    const request: HTTPGraphQLRequest = { method: "POST", headers, search: "", body: requested.body };
    const admitted = await deps.admit(request);
    if (admitted) return { refused: refusalResult(admitted) };
    const body = request.body as Record<string, unknown>;
    const query = typeof body.query === "string" ? body.query : undefined;
    if (query === undefined) return refuse("A subscription needs its document (query), a listed documentId or a known hash", ErrorCode.BAD_REQUEST);
    const variables = isRecord(body.variables) ? body.variables : {};
    const operationName = typeof body.operationName === "string" ? body.operationName : undefined;
    const operation: RequestedOperation = { query, operationName, variables };
    const limited = deps.checkLimits(operation);
    if (limited) return { refused: { data: null, errors: [limited] } };
    const schema = deps.schema();
    if (!schema) return refuse("The gateway has no schema yet", ErrorCode.UPSTREAM_UNAVAILABLE);
    let document: DocumentNode;
    try {
      document = operation.document ?? parse(query);
    } catch (err) {
      return { refused: { data: null, errors: [err as GraphQLError] } };
    }
    const invalid = validate(schema, document);
    if (invalid.length > 0) return { refused: { data: null, errors: invalid.map((e) => new GraphQLError(e.message, { extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED } })) } };
    const root = getOperationAST(document, operationName);
    if (root?.operation !== "subscription") return refuse("This endpoint serves subscriptions: send queries and mutations to /graphql", ErrorCode.BAD_REQUEST);
    const metered = await deps.meter(operation, requested.req);
    if (metered) return { refused: refusalResult(metered) };
    if (deps.forward && requested.authorization === undefined) return refuse("This gateway forwards the caller's credentials: send an Authorization header (or the connection's authorization)", ErrorCode.UNAUTHENTICATED);
    let plan: Plan;
    try {
      plan = planOf(schema, document, operationName, variables);
    } catch (err) {
      return { refused: { data: null, errors: [err instanceof GraphQLError ? err : new GraphQLError(String(err))] } };
    }
    // the read of each event is a query of its own, built from the selection: past a limit, every event would fail
    const eventLimited = deps.checkLimits({ query: plan.eventQuery, variables: { ...plan.eventVariables(variables), [CHANGED_ID]: "0" } });
    if (eventLimited) {
      const { message, extensions } = eventLimited;
      return { refused: { data: null, errors: [new GraphQLError(`${message}, in the read of each event's ${plan.rootField} node this subscription asks (its selection with __typename in each selection set): select less`, { extensions })] } };
    }
    const client = deps.clientOf(requested.req);
    if (open.size >= deps.settings.max) {
      metrics.subscriptions.inc({ outcome: "refused_replica_full" });
      return refuse(`Too many subscriptions on this replica: ${open.size} open, the maximum is ${deps.settings.max} (GATEWAY_SUBSCRIPTIONS_MAX); subscribe again later`, ErrorCode.RATE_LIMITED, { limit: "subscriptionsPerReplica", value: deps.settings.max });
    }
    const count = perClient.get(client) ?? 0;
    if (count >= deps.settings.perClient) {
      metrics.subscriptions.inc({ outcome: "refused_per_client" });
      return refuse(`Too many subscriptions: this client has ${count} open, the maximum is ${deps.settings.perClient} (GATEWAY_SUBSCRIPTIONS_PER_CLIENT); close one first`, ErrorCode.RATE_LIMITED, { limit: "subscriptionsPerClient", value: deps.settings.perClient });
    }
    perClient.set(client, count + 1);
    metrics.subscriptions.inc({ outcome: "opened" });
    metrics.subscriptionsOpen.inc();
    const filesBase = deps.filesBase(requested.req);
    const groupKey = createHash("sha256").update(JSON.stringify([query, operationName ?? null, variables, deps.forward ? (requested.authorization ?? "") : "", filesBase])).digest("base64url");
    const stream = run(plan, document, schema, variables, requested, groupKey, filesBase, () => {
      open.delete(stream);
      metrics.subscriptionsOpen.dec();
      const left = (perClient.get(client) ?? 1) - 1;
      if (left <= 0) perClient.delete(client);
      else perClient.set(client, left);
    });
    open.add(stream);
    return { stream };
  }

  /**
   * The client's stream, a subscriber of a group of its hub (docs/graph.md#subscriptions): the
   * hub is the one upstream stream of this replica for a root field and its filters (and, in
   * forward mode, the caller's credentials); the group is every subscriber of one selection and
   * visibility, whose event is read and executed once and the one result handed to each.
   */
  function run(plan: Plan, document: DocumentNode, schema: GraphQLSchema, variables: Record<string, unknown>, requested: Requested, groupKey: string, filesBase: string, done: () => void): AsyncIterableIterator<ExecutionResult> {
    const visibility = deps.forward ? requested.authorization : undefined;
    const hubKey = `${plan.rootField}\u0000${JSON.stringify(plan.upstreamVariables)}\u0000${visibility ?? ""}`;
    const hub = hubs.get(hubKey) ?? openHub(hubKey, plan, visibility);
    let group = hub.groups.get(groupKey);
    if (!group) hub.groups.set(groupKey, (group = { plan, document, schema, variables, authorization: visibility, filesBase, subscribers: new Set(), chain: Promise.resolve(), pending: 0 }));
    const joined = group;
    const queue: ExecutionResult[] = [];
    let waiting: ((r: IteratorResult<ExecutionResult>) => void) | null = null;
    let finished = false;
    const subscriber: Subscriber = {
      behind: () => queue.length,
      push(result) {
        if (finished) return;
        // the socket's unsent bytes count too: graphql-sse pulls each result at once into its own array, so the queue alone never fills
        if (queue.length >= deps.settings.queue || requested.congested()) return subscriber.tooSlow(queue.length);
        if (waiting) {
          const w = waiting;
          waiting = null;
          w({ value: result, done: false });
          return;
        }
        queue.push(result);
      },
      tooSlow(behind) {
        metrics.subscriptions.inc({ outcome: "closed_slow" });
        finish(endResult(`Subscription closed: this subscriber fell ${behind} events behind (too slow); subscribe again`, ErrorCode.SUBSCRIBER_TOO_SLOW));
      },
      finish: (last) => finish(last),
    };
    const finish = (last?: ExecutionResult) => {
      if (finished) return;
      queue.length = 0;
      if (last) queue.push(last);
      finished = true;
      leave(hub, groupKey, joined, subscriber);
      done();
      if (waiting && queue.length > 0) {
        const w = waiting;
        waiting = null;
        w({ value: queue.shift()!, done: false });
      } else if (waiting) {
        const w = waiting;
        waiting = null;
        w({ value: undefined, done: true });
      }
    };
    joined.subscribers.add(subscriber);
    const iterator: AsyncIterableIterator<ExecutionResult> & { drain?: () => void } = {
      next() {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
        if (finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (waiting = resolve));
      },
      return() {
        finish();
        queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
      // graphql-sse only ends the streams that look like generators (next, return and throw)
      throw() {
        return this.return!();
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    iterator.drain = () => finish();
    return iterator;
  }

  /** a subscriber leaves its group; the last of a group takes it away (its queued reads are skipped), the last of a hub closes its upstream stream */
  function leave(hub: Hub, groupKey: string, group: Group, subscriber: Subscriber) {
    group.subscribers.delete(subscriber);
    if (group.subscribers.size === 0 && hub.groups.get(groupKey) === group) hub.groups.delete(groupKey);
    if (hub.groups.size === 0 && hubs.get(hub.key) === hub) {
      hubs.delete(hub.key);
      hub.close();
    }
  }

  /** The replica's one upstream stream of a root field and filters: each event queued once in each of its groups. */
  function openHub(key: string, plan: Plan, authorization: string | undefined): Hub {
    const upstreamHeaders: Record<string, string> = {};
    if (authorization) upstreamHeaders.authorization = authorization;
    if (deps.secret) upstreamHeaders["x-subgraph-secret"] = deps.secret;
    const upstream = createClient({ url: deps.ownerUrl.replace(/\/graphql\/?$/, "") + SUBGRAPH_STREAM_PATH, headers: upstreamHeaders, retryAttempts: 0, singleConnection: false });
    const endAll = (last?: () => ExecutionResult) => {
      for (const group of [...hub.groups.values()]) for (const subscriber of [...group.subscribers]) subscriber.finish(last?.());
    };
    const hub: Hub = {
      key,
      groups: new Map(),
      close: () => {
        unsubscribe();
        upstream.dispose();
      },
    };
    hubs.set(key, hub);
    const unsubscribe = upstream.subscribe<{ [key: string]: Facts }>(
      { query: plan.upstreamQuery, variables: plan.upstreamVariables },
      {
        next: (result) => {
          if (result.errors?.length || !result.data) {
            const errors = (result.errors ?? []).map((e) => new GraphQLError(e.message, { extensions: (e as { extensions?: Record<string, unknown> }).extensions ?? {} }));
            endAll(() => ({ data: null, errors }));
            return;
          }
          const facts = result.data[plan.rootField];
          if (facts) for (const group of hub.groups.values()) enqueue(hub, group, facts);
        },
        error: () => endAll(() => endResult("Subscription ended: the subgraph's stream failed; subscribe again", ErrorCode.UPSTREAM_UNAVAILABLE)),
        complete: () => endAll(),
      },
    );
    return hub;
  }

  /**
   * One event for one group, in order after the group's earlier events. The backlog counts the
   * events not yet read: a group `queue` events behind, or a replica `replicaBacklog` behind in
   * all, closes the subscribers that would wait on it rather than let the reads pile up.
   */
  function enqueue(hub: Hub, group: Group, facts: Facts) {
    if (group.pending >= deps.settings.queue || backlog >= deps.settings.replicaBacklog) {
      for (const subscriber of [...group.subscribers]) subscriber.tooSlow(group.pending + subscriber.behind());
      return;
    }
    group.pending++;
    backlog++;
    group.chain = group.chain
      .then(async () => {
        // nothing is read for a group whose subscribers have all gone
        if (group.subscribers.size === 0) return;
        const resolved = await resolveEvent(group, facts);
        metrics.subscriptionEvents.inc({ outcome: resolved ? "delivered" : "hidden" }, resolved ? group.subscribers.size : 1);
        if (resolved) for (const subscriber of [...group.subscribers]) subscriber.push(resolved);
      })
      .catch((err: unknown) => {
        if (err instanceof CredentialsRefused) {
          // forward mode: the hub is the caller's credentials, so each of its subscriptions ends, not only this group's
          metrics.subscriptions.inc({ outcome: "closed_unauthenticated" });
          for (const other of [...hub.groups.values()]) for (const subscriber of [...other.subscribers]) subscriber.finish(endResult("Subscription ended: the directory no longer accepts these credentials (its answer was 401: revoked or expired); subscribe again with a valid token", ErrorCode.UNAUTHENTICATED));
          return;
        }
        deps.logger.warn("subscription event failed", { error: err instanceof Error ? err.message : String(err) });
        const failed = endResult(`The event ${facts.eventId} (${facts.topic} ${facts.id}) could not be read: ${err instanceof Error ? err.message : String(err)}`, ErrorCode.UPSTREAM_UNAVAILABLE);
        for (const subscriber of [...group.subscribers]) subscriber.push(failed);
      })
      .finally(() => {
        group.pending--;
        backlog--;
      });
  }

  /**
   * One event as the client asked it, or null when the caller may not see it. Traced, one
   * `subscription event` span per subscriber and event (a root: the event's ingestion is another
   * process's trace), joined to the ingestion's `directory event` span by `directory_graph.event.id`
   * (docs/observability.md#traces); the node read is its child.
   */
  async function resolveEvent(group: Group, facts: Facts): Promise<ExecutionResult | null> {
    if (!tracingOn()) return resolveEventUntraced(group, facts);
    const attributes = { "directory_graph.component": "gateway", "directory_graph.event.id": facts.eventId, "directory_graph.event.topic": facts.topic, "graphql.operation.type": "subscription" };
    return tracer.startActiveSpan("subscription event", { root: true, attributes }, ROOT_CONTEXT, async (span) => {
      try {
        const result = await resolveEventUntraced(group, facts, (shared) => span.setAttribute("directory_graph.subscription.read_shared", shared));
        span.setAttribute("directory_graph.subscription.outcome", result === null ? "hidden" : "delivered");
        return result;
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    });
  }

  /** the node read's own span under the delivery's, which the operation log names after it (`query GatewaySubscriptionEvent`) as it names a request's server span */
  function readSpan<T>(run: () => Promise<T>): Promise<T> {
    if (!tracingOn()) return run();
    return tracer.startActiveSpan("subscription node read", async (span) => {
      try {
        return await run();
      } finally {
        span.end();
      }
    });
  }

  async function resolveEventUntraced(group: Group, facts: Facts, sharedRead?: (shared: boolean) => void): Promise<ExecutionResult | null> {
    const { plan, document, schema, variables, authorization, filesBase } = group;
    const eventVariables = { ...plan.eventVariables(variables), [CHANGED_ID]: facts.id };
    // the subscribers of one event with the same credentials, links' base and selection share its one read
    const key = `${facts.eventId}\u0000${authorization ?? ""}\u0000${filesBase}\u0000${plan.eventQuery}\u0000${JSON.stringify(eventVariables)}`;
    let read: Promise<EventRead | null> | undefined = reads.get(key);
    sharedRead?.(read !== undefined);
    if (read === undefined) {
      const context: GatewayContext = { authorization, filesBase, operationId: randomUUID(), subgraphFetches: 0, deadline: performance.now() + deps.deadlineMs };
      read = readSpan(() => deps.apollo.executeOperation({ query: plan.eventQuery, variables: eventVariables }, { contextValue: context })).then((response): EventRead | null => (response.body.kind === "single" ? (response.body.singleResult as EventRead) : null));
      reads.set(key, read);
      setTimeout(() => reads.delete(key), SHARED_READ_MS).unref();
    }
    const answer = await read;
    const deleted = facts.topic.endsWith(".deleted");
    if (answer === null) throw new Error("the node read gave no single result");
    const { data, errors } = answer;
    // forward mode: the directory refused the caller's token (revoked, expired) at this read: the subscription ends (enqueue), nothing of the event is told
    if (deps.forward && (errors ?? []).some((e) => e.extensions?.code === ErrorCode.UNAUTHENTICATED)) throw new CredentialsRefused();
    if (!deleted && (data?.[plan.readableKey] ?? null) === null) {
      // a read that failed is told (the client may read the record again); a record the caller cannot read is not
      const failure = (errors ?? []).find((e) => !HIDDEN_CODES.has(String(e.extensions?.code ?? "")));
      if (failure) return { data: null, errors: [new GraphQLError(`The event ${facts.eventId} (${facts.topic} ${facts.id}) was heard but its record could not be read: ${failure.message}`, { extensions: { code: failure.extensions?.code ?? ErrorCode.UPSTREAM_UNAVAILABLE, eventId: facts.eventId, id: facts.id, topic: facts.topic } })] };
      return null;
    }
    const nodes = (deleted ? {} : (data ?? {})) as Record<string, unknown>;
    // the client's response keys: its aliases of the facts, and the nodes read under the same keys
    const source: Record<string, unknown> = {};
    // forward mode: a deleted record can no longer be read, so nothing shows the caller could read it: its deletion tells the id and topic, not the attributes it had
    for (const [key, field] of plan.factKeys) source[key] = deps.forward && deleted && field === "previousAttributes" ? null : (facts as unknown as Record<string, unknown>)[field];
    for (const key of plan.nodeKeys) source[key] = nodes[key] ?? null;
    const result = await execute({ schema: byKeySchema(schema), document, rootValue: { [plan.responseKey]: source }, variableValues: variables, operationName: plan.operationName, fieldResolver: byResponseKey, typeResolver: (value) => (value as { __typename?: string })?.__typename });
    const prefixed = (errors ?? []).map((e) => new GraphQLError(e.message, { path: e.path ? [plan.responseKey, ...e.path] : undefined, extensions: e.extensions }));
    return { data: result.data ?? null, ...(result.errors || prefixed.length ? { errors: [...(result.errors ?? []), ...prefixed] } : {}) };
  }

  /** graphql-sse's handler for the gateway's stream path (CORS is answered before it, gateway.ts) */
  const sseHandler = createHandler({
    schema: () => deps.schema()!,
    async onSubscribe(req, params) {
      const raw = req.raw as IncomingMessage;
      const res = (req.context as { res?: ServerResponse } | undefined)?.res;
      const body: Record<string, unknown> = { ...params };
      const backlog = res ? sseBacklog(res) : { handed: 0, written: 0 };
      const opened = await subscribe({ body, req: raw, authorization: canonicalAuthorization(req.headers.get("authorization") ?? undefined), congested: () => backlog.handed - backlog.written >= deps.settings.queue || (res?.writableLength ?? 0) > CONGESTED_BYTES });
      if ("refused" in opened) return opened.refused;
      const stream = opened.stream as AsyncIterableIterator<ExecutionResult> & { drain?: () => void };
      // a stop's drain ends the stream: its reconnect advice first, then the `complete`
      const end = stream.drain;
      if (res) stream.drain = () => (writeReconnectHint(res), end?.());
      if (res && deps.settings.heartbeatMs > 0) {
        const beat = setInterval(() => {
          if (res.headersSent && !res.writableEnded) res.write(":\n\n");
        }, deps.settings.heartbeatMs);
        beat.unref();
        res.once("close", () => clearInterval(beat));
      }
      // each result graphql-sse takes is counted: it pulls them at once into its own array, ahead of the socket
      const inner = stream.next.bind(stream);
      stream.next = async () => {
        const next = await inner();
        if (!next.done) backlog.handed++;
        return next;
      };
      return stream;
    },
  });

  /**
   * What one SSE response was handed and what it wrote of it. graphql-sse's handler takes every
   * result of the stream as it comes into an unbounded array of its own and writes them one by one,
   * each after the last is flushed: the socket's unsent bytes stay small while the array grows. The
   * events it wrote (`event: next`) are counted at `res.write`, its one way out.
   */
  function sseBacklog(res: ServerResponse): { handed: number; written: number } {
    let state = sseBacklogs.get(res);
    if (!state) {
      const counted = { handed: 0, written: 0 };
      sseBacklogs.set(res, (state = counted));
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (typeof chunk === "string" && chunk.startsWith("event: next")) counted.written++;
        return write(chunk, ...rest);
      }) as ServerResponse["write"];
    }
    return state;
  }
  const sseBacklogs = new WeakMap<ServerResponse, { handed: number; written: number }>();

  /**
   * The stream path. graphql-sse reads only a `query`: a POST that names its document by
   * `documentId` or an APQ hash has it filled in by the trusted-documents step first (the same
   * step `subscribe` runs again on the filled body), then graphql-sse reads the body so filled.
   */
  async function sse(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "GET") {
      const url = new URL(req.url ?? "/", "http://gateway.local");
      if (url.searchParams.get("query")) return sseHandler(req, res);
      // an EventSource naming its document by documentId or APQ hash: filled in the query string, as a POST body is
      const request: HTTPGraphQLRequest = { method: "GET", headers: new HeaderMap(), search: url.search, body: undefined };
      const refused = await deps.admit(request);
      if (refused) return sendJson(res, refused.status, refused.body, refused.headers);
      req.url = `${url.pathname}${request.search}`;
      return sseHandler(req, res);
    }
    if (req.method !== "POST") return sseHandler(req, res);
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req)).toString("utf8"));
    } catch (err) {
      if (err instanceof BodyTooLargeError) return sendBodyTooLarge(req, res);
      return sendJson(res, 400, errorBody(ErrorCode.BAD_REQUEST, "The body must be JSON: { query, variables, operationName } or a documentId"));
    }
    if (isRecord(body) && (typeof body.query !== "string" || body.query === "")) {
      const headers = new HeaderMap();
      headers.set("content-type", "application/json");
      const request: HTTPGraphQLRequest = { method: "POST", headers, search: "", body };
      const refused = await deps.admit(request);
      if (refused) return sendJson(res, refused.status, refused.body, refused.headers);
    }
    const replay = Object.assign(Readable.from([Buffer.from(JSON.stringify(body))]), { method: req.method, url: req.url, headers: req.headers, socket: req.socket });
    return sseHandler(replay as unknown as IncomingMessage, res);
  }

  /** graphql-ws on the gateway's port: an upgrade of `/` or `/graphql` with the `graphql-transport-ws` protocol */
  function attachWebSocket(server: import("node:http").Server) {
    // a message is bounded as an HTTP body is (ws's own default is 100 MiB): a longer one closes the connection (1009)
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
    /** open connections per client (rate-limits.ts's clientOf), GATEWAY_WS_CONNECTIONS_PER_CLIENT at most */
    const connections = new Map<string, number>();
    server.on("upgrade", (req, socket, head) => {
      const path = new URL(req.url ?? "/", "http://gateway.local").pathname;
      if (draining || (path !== "/" && path !== "/graphql")) {
        socket.destroy();
        return;
      }
      const client = deps.clientOf(req);
      const count = connections.get(client) ?? 0;
      if (count >= deps.settings.connectionsPerClient) {
        metrics.subscriptions.inc({ outcome: "refused_connections_per_client" });
        const message = `Too many graphql-ws connections: this client has ${count} open, the maximum is ${deps.settings.connectionsPerClient} (GATEWAY_WS_CONNECTIONS_PER_CLIENT)`;
        socket.end(`HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`);
        return;
      }
      connections.set(client, count + 1);
      const release = () => {
        const left = (connections.get(client) ?? 1) - 1;
        if (left <= 0) connections.delete(client);
        else connections.set(client, left);
      };
      socket.once("close", release);
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    });
    const wsServer = useServer<Record<string, unknown> | undefined, { request: IncomingMessage; socket: WebSocket }>(
      {
        schema: () => deps.schema()!,
        async onSubscribe(ctx, _id, payload) {
          const fromParams = typeof ctx.connectionParams?.authorization === "string" ? ctx.connectionParams.authorization : undefined;
          const header = typeof ctx.extra.request.headers.authorization === "string" ? ctx.extra.request.headers.authorization : undefined;
          const authorization = canonicalAuthorization(fromParams ?? header);
          const req = Object.assign(Object.create(ctx.extra.request) as IncomingMessage, { headers: { ...ctx.extra.request.headers, ...(authorization ? { authorization } : {}) } });
          const opened = await subscribe({ body: { ...payload }, req, authorization, congested: () => ctx.extra.socket.bufferedAmount > CONGESTED_BYTES });
          if ("refused" in opened) return (opened.refused.errors ?? []) as GraphQLError[];
          (ctx as unknown as { streams?: Map<string, unknown> }).streams ??= new Map();
          pendingStreams.set(_id + ":" + connectionKey(ctx), opened.stream);
          return { schema: deps.schema()!, document: parse("subscription { __typename }"), contextValue: { streamKey: _id + ":" + connectionKey(ctx) } };
        },
        subscribe: (args) => {
          const key = (args.contextValue as { streamKey: string }).streamKey;
          const stream = pendingStreams.get(key)!;
          pendingStreams.delete(key);
          return stream;
        },
      },
      wss,
      deps.settings.heartbeatMs > 0 ? deps.settings.heartbeatMs : undefined,
    );
    return {
      async close() {
        await wsServer.dispose();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      },
    };
  }
  const pendingStreams = new Map<string, AsyncIterableIterator<ExecutionResult>>();
  const connectionIds = new WeakMap<object, string>();
  const connectionKey = (ctx: object) => {
    let id = connectionIds.get(ctx);
    if (!id) connectionIds.set(ctx, (id = randomUUID()));
    return id;
  };

  return {
    sse,
    attachWebSocket,
    /** open subscriptions on this replica */
    get open() {
      return open.size;
    },
    /** the drain, as the stop begins (gateway.ts): no new subscription; each open one ends cleanly (a `complete`), so the server can close */
    drain() {
      draining = true;
      for (const stream of [...open]) (stream as { drain?: () => void }).drain?.();
    },
  };
}

const CHANGED_ID = "gatewayChangedId";
/** forward mode: an event's node read was refused as UNAUTHENTICATED (the directory's 401 for the caller's token) */
class CredentialsRefused extends Error {}
/** the codes of a node read that hides the record from the caller rather than fails */
const HIDDEN_CODES = new Set<string>([ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.UNAUTHENTICATED]);

/**
 * The API schema without its resolvers, over which the client's document is executed: Apollo
 * Server's plugins wrap the schema's resolvers in place, and a wrapped resolver reads its field by
 * name where the event's answer is keyed by the client's aliases (byResponseKey).
 */
const byKeySchemas = new WeakMap<GraphQLSchema, GraphQLSchema>();
function byKeySchema(schema: GraphQLSchema): GraphQLSchema {
  let stripped = byKeySchemas.get(schema);
  if (!stripped) {
    stripped = mapSchema(schema, { [MapperKind.OBJECT_FIELD]: (field) => ({ ...field, resolve: undefined, subscribe: undefined }) });
    byKeySchemas.set(schema, stripped);
  }
  return stripped;
}

/** a subscriber as its group sees it */
interface Subscriber {
  /** results queued for it, not yet taken by its transport */
  behind(): number;
  push(result: ExecutionResult): void;
  tooSlow(behind: number): void;
  finish(last?: ExecutionResult): void;
}

/** the subscribers of one selection and visibility on one hub: one read and one execution per event */
interface Group {
  plan: Plan;
  document: DocumentNode;
  schema: GraphQLSchema;
  variables: Record<string, unknown>;
  /** the caller's credentials in forward mode; the facade's own (none sent) in service mode */
  authorization: string | undefined;
  /** the origin its file links name (part of the group's key) */
  filesBase: string;
  subscribers: Set<Subscriber>;
  chain: Promise<void>;
  /** events queued for this group and not yet read */
  pending: number;
}

interface Hub {
  key: string;
  groups: Map<string, Group>;
  close(): void;
}

/** the answer of one event's node read */
interface EventRead {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLError[];
}

interface Facts {
  eventId: string;
  topic: string;
  occurredAt: string;
  id: string;
  previousAttributes: unknown;
}

interface Plan {
  operationName: string | undefined;
  /** the root field's name and response key */
  rootField: string;
  responseKey: string;
  /** the client's response keys of the event's facts, with their field */
  factKeys: Array<[string, string]>;
  /** the client's response keys of the node field */
  nodeKeys: string[];
  /** the event read's key of the node read whatever the client selects (whether the caller can read it) */
  readableKey: string;
  upstreamQuery: string;
  upstreamVariables: Record<string, unknown>;
  eventQuery: string;
  eventVariables: (variables: Record<string, unknown>) => Record<string, unknown>;
}

/** What a subscription document asks, split into the subgraph's subscription and the query of each event's node. */
function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): Plan {
  const operation = getOperationAST(document, operationName)!;
  const subscriptionType = schema.getSubscriptionType()!;
  const rootNode = operation.selectionSet.selections[0];
  if (rootNode?.kind !== Kind.FIELD || operation.selectionSet.selections.length !== 1) throw badInput("A subscription selects one field at its root, without fragments");
  const rootField = rootNode.name.value;
  const fieldDef = subscriptionType.getFields()[rootField] as GraphQLField<unknown, unknown>;
  const changeType = getNamedType(fieldDef.type);
  if (!isObjectType(changeType)) throw badInput(`${rootField} is not a change subscription`);
  const nodeEntry = Object.values(changeType.getFields()).find((f) => isObjectType(getNamedType(f.type)) && f.name !== "previousAttributes");
  if (!nodeEntry) throw badInput(`${rootField} has no node field`);
  const nodeType = getNamedType(nodeEntry.type) as GraphQLObjectType;
  const queryField = nodeType.name[0]!.toLowerCase() + nodeType.name.slice(1);
  if (!schema.getQueryType()?.getFields()[queryField]) throw badInput(`${nodeType.name} has no query field ${queryField}`);
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) throw coerced.errors[0]!;
  const args = getArgumentValues(fieldDef, rootNode, coerced.coerced);
  const argNames = Object.keys(args);
  const upstreamQuery = `subscription GatewaySubscription${argNames.length ? `(${argNames.map((a) => `$${a}: ${fieldDef.args.find((d) => d.name === a)!.type.toString()}`).join(", ")})` : ""} { ${rootField}${argNames.length ? `(${argNames.map((a) => `${a}: $${a}`).join(", ")})` : ""} { ${FACTS} } }`;

  // the node's selections, wherever they sit under the root field (fields and inline fragments)
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const nodeSelections: FieldNode[] = [];
  const factKeys: Array<[string, string]> = [];
  const collect = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD && selection.name.value === nodeEntry.name) nodeSelections.push(selection);
      else if (selection.kind === Kind.FIELD) factKeys.push([selection.alias?.value ?? selection.name.value, selection.name.value]);
      else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) collect(fragments.get(selection.name.value)?.selectionSet);
    }
  };
  collect(rootNode.selectionSet);
  // the read adds no alias of its own (the client's count against GRAPHQL_MAX_ALIASES as in its document): the node under
  // each of the client's keys, aliased only where the key is not the query field's name; whether the caller can read it,
  // the query field unaliased (merged with the client's unaliased node field, if any)
  const aliasOf = (key: string): NameNode | undefined => (key === queryField ? undefined : { kind: Kind.NAME, value: key });
  const asQuery: SelectionNode[] = nodeSelections.map((f) => ({ ...f, alias: aliasOf(f.alias?.value ?? f.name.value), name: { kind: Kind.NAME, value: queryField }, arguments: [idArgument()] }));
  const body: SelectionNode[] = [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: queryField }, arguments: [idArgument()], selectionSet: { kind: Kind.SELECTION_SET, selections: [typename()] } }, ...asQuery];
  // the fragments and variables the node's selections use, and a __typename in each selection set (the client's document is executed over the answer: abstract types need it)
  const used = new Set<string>();
  const usedVariables = new Set<string>();
  const walk = (node: object) =>
    visit(node as never, {
      FragmentSpread(spread) {
        if (!used.has(spread.name.value)) {
          used.add(spread.name.value);
          const fragment = fragments.get(spread.name.value);
          if (fragment) walk(fragment);
        }
      },
      Variable(variable) {
        usedVariables.add(variable.name.value);
      },
    });
  for (const s of asQuery) walk(s);
  const withTypenames = (node: object) =>
    visit(node as never, { SelectionSet: (set: SelectionSetNode) => (set.selections.some((s) => s.kind === Kind.FIELD && s.name.value === "__typename" && !s.alias) ? set : { ...set, selections: [...set.selections, typename()] }) });
  const definitions = (operation.variableDefinitions ?? []).filter((d) => usedVariables.has(d.variable.name.value));
  const eventDocument: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: "query" as never,
        name: { kind: Kind.NAME, value: "GatewaySubscriptionEvent" },
        variableDefinitions: [
          { kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: CHANGED_ID } }, type: { kind: Kind.NON_NULL_TYPE, type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: "ID" } } } },
          ...definitions,
        ],
        directives: [],
        selectionSet: withTypenames({ kind: Kind.SELECTION_SET, selections: body }) as SelectionSetNode,
      },
      ...[...used].map((name) => withTypenames(fragments.get(name)!) as FragmentDefinitionNode),
    ],
  };
  return {
    operationName,
    rootField,
    responseKey: rootNode.alias?.value ?? rootField,
    readableKey: queryField,
    factKeys,
    nodeKeys: [...new Set(nodeSelections.map((f) => f.alias?.value ?? f.name.value))],
    upstreamQuery,
    upstreamVariables: args,
    eventQuery: print(eventDocument),
    eventVariables: (vars) => Object.fromEntries(Object.entries(vars).filter(([k]) => usedVariables.has(k))),
  };
}

/**
 * Resolves the client's document over an event, every field reading its response key: the event's
 * query kept the client's aliases, and the facts are put under the client's keys (the gateway's
 * API schema resolves its fields so too).
 */
const byResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) =>
  source !== null && typeof source === "object" ? (source as Record<string, unknown>)[String(info.path.key)] : null;

const typename = (): FieldNode => ({ kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } });
const idArgument = () => ({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "id" }, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: CHANGED_ID } } }) as const;
const badInput = (message: string) => new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT } });
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function refusalResult(refusal: Refusal): ExecutionResult {
  const errors = (refusal.body as { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }).errors ?? [{ message: "Refused" }];
  return { data: null, errors: errors.map((e) => new GraphQLError(e.message, { extensions: { ...e.extensions, http: { status: refusal.status } } })) };
}

function endResult(message: string, code: ErrorCode): ExecutionResult {
  return { errors: [new GraphQLError(message, { extensions: { code } })] };
}
