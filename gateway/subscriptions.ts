import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
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
  type SelectionNode,
  type SelectionSetNode,
  validate,
  visit,
} from "graphql";
import { getArgumentValues, getVariableValues } from "graphql/execution/values.js";
import { createClient } from "graphql-sse";
import { createHandler } from "graphql-sse/lib/use/http";
import { WebSocketServer, type WebSocket } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { Environment } from "../platform/config.js";
import { canonicalAuthorization } from "../platform/credentials.js";
import { ErrorCode } from "../platform/error-codes.js";
import { readBody, sendJson, type Refusal } from "../platform/http.js";
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
  /** GATEWAY_SUBSCRIPTIONS_PER_CLIENT (default 20): open subscriptions per client (token, else address) and replica */
  perClient: number;
  /** GATEWAY_SUBSCRIPTION_HEARTBEAT_MS (default 15000): a comment (SSE) or ping (WebSocket) this often; 0: none */
  heartbeatMs: number;
  /** GATEWAY_SUBSCRIPTION_QUEUE (default 100): events a subscriber may fall behind before it is closed as too slow */
  queue: number;
}

export function loadSubscriptionSettings(env: NodeJS.ProcessEnv = process.env): SubscriptionSettings {
  const e = new Environment(env);
  return {
    perClient: e.integer("GATEWAY_SUBSCRIPTIONS_PER_CLIENT", 20, 1, 100_000),
    heartbeatMs: e.integer("GATEWAY_SUBSCRIPTION_HEARTBEAT_MS", 15_000, 0, 3_600_000),
    queue: e.integer("GATEWAY_SUBSCRIPTION_QUEUE", 100, 1, 100_000),
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
 * 2. it subscribes to the owning subgraph's stream with the caller's credentials and the subgraph
 *    secret, asking only the event's facts (the changed record's id, topic, time, previous values);
 * 3. each event's node is read through the gateway's own query path (`apollo.executeOperation`:
 *    the caller's credentials, its plugins, its query plan across subgraphs), then the client's
 *    document is executed over the facts and that node, so the client gets exactly its selection.
 *
 * In forward mode, an event whose record the caller cannot read (its node comes back null and it
 * is not a deletion) is not delivered: its facts would tell of a record the caller may not see.
 */
export function subscriptionService(deps: SubscriptionDeps) {
  const open = new Set<AsyncIterableIterator<ExecutionResult>>();
  const perClient = new Map<string, number>();
  /** each event's node reads in flight or just done, shared by the subscribers asking the same (resolveEvent) */
  const reads = new Map<string, Promise<EventRead | null>>();
  const metrics = processMetrics();
  let draining = false;

  async function subscribe(requested: Requested): Promise<Opened> {
    const refuse = (message: string, code: string, extra: Record<string, unknown> = {}): Opened => ({ refused: { data: null, errors: [new GraphQLError(message, { extensions: { code, ...extra } })] } });
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
    const client = requested.authorization ? `token:${createHash("sha256").update(requested.authorization).digest("base64url")}` : `address:${requested.req.socket.remoteAddress ?? "?"}`;
    const count = perClient.get(client) ?? 0;
    if (count >= deps.settings.perClient) {
      metrics.subscriptions.inc({ outcome: "refused_per_client" });
      return refuse(`Too many subscriptions: this client has ${count} open, the maximum is ${deps.settings.perClient} (GATEWAY_SUBSCRIPTIONS_PER_CLIENT); close one first`, ErrorCode.RATE_LIMITED, { limit: "subscriptionsPerClient", value: deps.settings.perClient });
    }
    perClient.set(client, count + 1);
    metrics.subscriptions.inc({ outcome: "opened" });
    metrics.subscriptionsOpen.inc();
    const stream = run(plan, document, schema, variables, requested, () => {
      open.delete(stream);
      metrics.subscriptionsOpen.dec();
      const left = (perClient.get(client) ?? 1) - 1;
      if (left <= 0) perClient.delete(client);
      else perClient.set(client, left);
    });
    open.add(stream);
    return { stream };
  }

  /** The client's stream: the owning subgraph's events, each resolved through the gateway's query path. */
  function run(plan: Plan, document: DocumentNode, schema: GraphQLSchema, variables: Record<string, unknown>, requested: Requested, done: () => void): AsyncIterableIterator<ExecutionResult> {
    const upstreamHeaders: Record<string, string> = {};
    if (requested.authorization) upstreamHeaders.authorization = requested.authorization;
    if (deps.secret) upstreamHeaders["x-subgraph-secret"] = deps.secret;
    const upstream = createClient({ url: deps.ownerUrl.replace(/\/graphql\/?$/, "") + SUBGRAPH_STREAM_PATH, headers: upstreamHeaders, retryAttempts: 0, singleConnection: false });
    const queue: ExecutionResult[] = [];
    let waiting: ((r: IteratorResult<ExecutionResult>) => void) | null = null;
    let finished = false;
    let pending: Promise<void> = Promise.resolve();
    const push = (result: ExecutionResult) => {
      if (finished) return;
      if (waiting) {
        const w = waiting;
        waiting = null;
        w({ value: result, done: false });
        return;
      }
      if (queue.length >= deps.settings.queue || requested.congested()) {
        metrics.subscriptions.inc({ outcome: "closed_slow" });
        finish(endResult(`Subscription closed: this subscriber fell ${queue.length} events behind (too slow); subscribe again`, "SUBSCRIBER_TOO_SLOW"));
        return;
      }
      queue.push(result);
    };
    const finish = (last?: ExecutionResult) => {
      if (finished) return;
      queue.length = 0;
      if (last) queue.push(last);
      finished = true;
      unsubscribe();
      upstream.dispose();
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
    const unsubscribe = upstream.subscribe<{ [key: string]: Facts }>(
      { query: plan.upstreamQuery, variables: plan.upstreamVariables },
      {
        next: (result) => {
          if (result.errors?.length || !result.data) {
            finish({ data: null, errors: (result.errors ?? []).map((e) => new GraphQLError(e.message, { extensions: (e as { extensions?: Record<string, unknown> }).extensions ?? {} })) });
            return;
          }
          const facts = result.data[plan.rootField];
          if (!facts) return;
          // in order: each event waits for the one before it
          pending = pending.then(() => resolveEvent(plan, document, schema, variables, requested.authorization, facts)).then(
            (resolved) => {
              if (resolved) {
                metrics.subscriptionEvents.inc({ outcome: "delivered" });
                push(resolved);
              } else metrics.subscriptionEvents.inc({ outcome: "hidden" });
            },
            (err: unknown) => deps.logger.warn("subscription event failed", { error: err instanceof Error ? err.message : String(err) }),
          );
        },
        error: () => finish(endResult("Subscription ended: the subgraph's stream failed; subscribe again", ErrorCode.UPSTREAM_UNAVAILABLE)),
        complete: () => finish(),
      },
    );
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

  /**
   * One event as the client asked it, or null when the caller may not see it. Traced, one
   * `subscription event` span per subscriber and event (a root: the event's ingestion is another
   * process's trace), joined to the ingestion's `directory event` span by `directory_graph.event.id`
   * (docs/observability.md#traces); the node read is its child.
   */
  async function resolveEvent(plan: Plan, document: DocumentNode, schema: GraphQLSchema, variables: Record<string, unknown>, authorization: string | undefined, facts: Facts): Promise<ExecutionResult | null> {
    if (!tracingOn()) return resolveEventUntraced(plan, document, schema, variables, authorization, facts);
    const attributes = { "directory_graph.component": "gateway", "directory_graph.event.id": facts.eventId, "directory_graph.event.topic": facts.topic, "graphql.operation.type": "subscription" };
    return tracer.startActiveSpan("subscription event", { root: true, attributes }, ROOT_CONTEXT, async (span) => {
      try {
        const result = await resolveEventUntraced(plan, document, schema, variables, authorization, facts, (shared) => span.setAttribute("directory_graph.subscription.read_shared", shared));
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

  async function resolveEventUntraced(plan: Plan, document: DocumentNode, schema: GraphQLSchema, variables: Record<string, unknown>, authorization: string | undefined, facts: Facts, sharedRead?: (shared: boolean) => void): Promise<ExecutionResult | null> {
    const eventVariables = { ...plan.eventVariables(variables), [CHANGED_ID]: facts.id };
    // the subscribers of one event with the same credentials and selection share its one read
    const key = `${facts.eventId}\u0000${authorization ?? ""}\u0000${plan.eventQuery}\u0000${JSON.stringify(eventVariables)}`;
    let read: Promise<EventRead | null> | undefined = reads.get(key);
    sharedRead?.(read !== undefined);
    if (read === undefined) {
      const context: GatewayContext = { authorization, operationId: randomUUID(), subgraphFetches: 0, deadline: performance.now() + deps.deadlineMs };
      read = readSpan(() => deps.apollo.executeOperation({ query: plan.eventQuery, variables: eventVariables }, { contextValue: context })).then((response): EventRead | null => (response.body.kind === "single" ? (response.body.singleResult as EventRead) : null));
      reads.set(key, read);
      setTimeout(() => reads.delete(key), SHARED_READ_MS).unref();
    }
    const answer = await read;
    if (answer === null) return null;
    const { data, errors } = answer;
    const deleted = facts.topic.endsWith(".deleted");
    if (!deleted && (data?.[READABLE] ?? null) === null) return null;
    const nodes = (deleted ? {} : (data ?? {})) as Record<string, unknown>;
    // the client's response keys: its aliases of the facts, and the nodes read under the same keys
    const source: Record<string, unknown> = {};
    for (const [key, field] of plan.factKeys) source[key] = (facts as unknown as Record<string, unknown>)[field];
    for (const key of plan.nodeKeys) source[key] = nodes[key] ?? null;
    const result = await execute({ schema, document, rootValue: { [plan.responseKey]: source }, variableValues: variables, operationName: plan.operationName, fieldResolver: byResponseKey, typeResolver: (value) => (value as { __typename?: string })?.__typename });
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
      const opened = await subscribe({ body, req: raw, authorization: canonicalAuthorization(req.headers.get("authorization") ?? undefined), congested: () => (res?.writableLength ?? 0) > CONGESTED_BYTES });
      if ("refused" in opened) return opened.refused;
      if (res && deps.settings.heartbeatMs > 0) {
        const beat = setInterval(() => {
          if (res.headersSent && !res.writableEnded) res.write(":\n\n");
        }, deps.settings.heartbeatMs);
        beat.unref();
        res.once("close", () => clearInterval(beat));
      }
      return opened.stream;
    },
  });

  /**
   * The stream path. graphql-sse reads only a `query`: a POST that names its document by
   * `documentId` or an APQ hash has it filled in by the trusted-documents step first (the same
   * step `subscribe` runs again on the filled body), then graphql-sse reads the body so filled.
   */
  async function sse(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") return sseHandler(req, res);
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req)).toString("utf8"));
    } catch {
      return sendJson(res, 400, { errors: [{ message: "The body must be JSON: { query, variables, operationName } or a documentId", extensions: { code: ErrorCode.BAD_REQUEST } }] });
    }
    if (isRecord(body) && typeof body.query !== "string") {
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
    const wss = new WebSocketServer({ noServer: true });
    server.on("upgrade", (req, socket, head) => {
      const path = new URL(req.url ?? "/", "http://gateway.local").pathname;
      if (draining || (path !== "/" && path !== "/graphql")) {
        socket.destroy();
        return;
      }
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
    /** the drain: no new subscription; each open one ends cleanly (a `complete`), so the server can close */
    drain() {
      draining = true;
      for (const stream of [...open]) (stream as { drain?: () => void }).drain?.();
    },
  };
}

const CHANGED_ID = "gatewayChangedId";
const READABLE = "gatewayReadable";

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
  const asQuery: SelectionNode[] = nodeSelections.map((f) => ({ ...f, alias: { kind: Kind.NAME, value: f.alias?.value ?? f.name.value }, name: { kind: Kind.NAME, value: queryField }, arguments: [idArgument()] }));
  const body: SelectionNode[] = [{ kind: Kind.FIELD, alias: { kind: Kind.NAME, value: READABLE }, name: { kind: Kind.NAME, value: queryField }, arguments: [idArgument()], selectionSet: { kind: Kind.SELECTION_SET, selections: [typename()] } }, ...asQuery];
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

function endResult(message: string, code: string): ExecutionResult {
  return { errors: [new GraphQLError(message, { extensions: { code } })] };
}
