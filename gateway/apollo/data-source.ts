import type { GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from "@apollo/gateway";
import { createBatchingExecutor, getBatchingExecutor } from "@graphql-tools/batch-execute";
import { Kind, parse, print, type DocumentNode, type FieldNode } from "graphql";
import { LRUCache } from "lru-cache";
import { distinctRepresentations, expandEntities } from "./representations.js";
import type { SubgraphAnswer, SubgraphFetch } from "../subgraph-fetch.js";
import { SubgraphDataSource, type GatewayContext } from "../subgraph-source.js";

/**
 * What the data source reads of a fetch's response (ok, status, statusText, url, headers, text,
 * json), over the answer already read: a `new Response` would turn the text back into a stream
 * of bytes for the data source to decode and parse again, on every subgraph fetch. A class rather
 * than an object of closures: the bundle keeps function names (scripts/bundle.mjs), which costs a
 * property definition for each closure made, three on every fetch.
 */
export class AnswerResponse {
  readonly redirected = false;
  readonly bodyUsed = false;
  constructor(
    readonly url: string,
    private readonly answer: SubgraphAnswer,
  ) {}
  get ok(): boolean {
    return this.answer.status >= 200 && this.answer.status < 300;
  }
  get status(): number {
    return this.answer.status;
  }
  get statusText(): string {
    return this.answer.statusText;
  }
  get headers(): Headers {
    return this.answer.headers;
  }
  async text(): Promise<string> {
    return this.answer.text;
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.answer.text) as unknown;
  }
  clone(): AnswerResponse {
    return new AnswerResponse(this.url, this.answer);
  }
}

type ProcessOptions = GraphQLDataSourceProcessOptions<GatewayContext>;
type ProcessResult = ReturnType<RemoteGraphQLDataSource<GatewayContext>["process"]>;
/** the source texts of the queries a batch merges, in its order (`batchSources`) */
const SOURCES = Symbol("batched query sources");
/** What `getBatchingExecutor` is handed and hands back, in the shapes of @graphql-tools/utils. */
interface BatchRequest {
  document: DocumentNode;
  variables?: Record<string, unknown>;
  operationType?: "query";
  context?: ProcessOptions;
  extensions?: { [SOURCES]?: string[] };
}
type BatchExecutor = (request: BatchRequest) => Promise<unknown>;

const MAX_PARSED_QUERIES = 2000;
/** the source text of each query the batching executor is handed (`batchShape`), so that a fetch sent alone is sent as the plan wrote it */
const querySources = new WeakMap<DocumentNode, string>();
/**
 * Parsed subgraph queries, as the batching executor is handed them: a plan's fetches are the same
 * few strings, operation after operation. Only the operation's top-level fields are kept, their
 * names and aliases (null when a top-level selection is not a field: such a query goes alone).
 * That is all batch-execute reads of a document beyond merging it, and it merges each document
 * again on every batch, visiting all of it: with whole documents that was a sixteenth of the
 * gateway's CPU in its profile (bench/results.md). What is sent is the text of the whole
 * queries merged, by the list of their texts (`batchText`).
 */
const batchShapes = new LRUCache<string, { shape: DocumentNode | null }>({
  max: MAX_PARSED_QUERIES,
  memoMethod: (query) => {
    const operation = parse(query, { noLocation: true }).definitions[0];
    if (operation?.kind !== Kind.OPERATION_DEFINITION || operation.operation !== "query" || !operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD)) return { shape: null };
    const fields = operation.selectionSet.selections.map((field) => ({ kind: field.kind, alias: field.alias, name: field.name }) as FieldNode);
    // no variable definitions either: batch-execute then renames the variables without visiting the document
    const shape: DocumentNode = { kind: Kind.DOCUMENT, definitions: [{ kind: operation.kind, operation: operation.operation, name: operation.name, selectionSet: { kind: Kind.SELECTION_SET, selections: fields } }] };
    querySources.set(shape, query);
    return { shape };
  },
});
/**
 * The text of each batch, by the texts it merges: a plan batches the same fetches operation after
 * operation, and merging and printing them again each time was a twentieth of the gateway's CPU.
 * On a miss, the whole queries are merged by batch-execute itself (`mergedText`), so that the text
 * and the answer's split agree on its aliases and variable names.
 */
const batchTexts = new LRUCache<string, Promise<string>>({ max: MAX_PARSED_QUERIES, memoMethod: (sources) => mergedText(sources.split("\u0000")) });

/** The queries `sources` merged as batch-execute merges them, printed: its executor, handed them at once, captures the merged request. */
async function mergedText(sources: string[]): Promise<string> {
  let merged: DocumentNode | undefined;
  const capture = createBatchingExecutor((async (request: { document: DocumentNode }) => {
    merged = request.document;
    return { data: {} };
  }) as never);
  await Promise.all(sources.map((source) => capture({ document: parse(source, { noLocation: true }), operationType: "query" } as never)));
  return print(merged!);
}

/**
 * The batching executor's extensions reducer: it collects the source text of each query merged,
 * in the merge's order (which names their prefixes), under a symbol that is never sent.
 */
function batchSources(merged: { [SOURCES]?: string[] }, request: BatchRequest): { [SOURCES]?: string[] } {
  return { [SOURCES]: [...(merged[SOURCES] ?? []), querySources.get(request.document)!] };
}

function batchText(batched: BatchRequest): string | Promise<string> {
  const alone = querySources.get(batched.document);
  if (alone !== undefined) return alone;
  return batchTexts.memo(batched.extensions![SOURCES]!.join("\u0000"));
}

/**
 * The data source of the patched path (seams.ts): entities are sent once, the stage's queries to a
 * subgraph are batched, and `sendRequest` (replaced below) hands the answer read whole to the library.
 */
export class PatchedDataSource extends SubgraphDataSource {
  constructor(
    name: string,
    url: string,
    secret: string | null,
    fetch: SubgraphFetch,
    private readonly maxBatch: number,
  ) {
    super(name, url, secret, fetch, (url, answer) => new AnswerResponse(url, answer) as unknown as Response);
  }

  /**
   * The queries one operation sends this subgraph at the same time (a plan's parallel
   * entity fetches: organisation's legal entity, templates, departments, qualifications and
   * categories of EmployeeProfile) go as one HTTP request, their fields aliased and variables
   * renamed apart by @graphql-tools/batch-execute (what Hive Gateway does), and each gets its own
   * part of the answer: one subgraph request pipeline and one round trip instead of five, which is
   * most of what separated our throughput from Hive Gateway's (see bench/results.md).
   * Mutations are sent one by one, in the plan's order.
   */
  override process(options: ProcessOptions): ProcessResult {
    const { request } = options;
    // only entity fetches that carry representations are batched: a root fetch is its stage's
    // only fetch to that subgraph
    const representations = request.variables?.representations;
    if (!Array.isArray(representations) || representations.length === 0) return super.process(options);
    // each entity once per fetch, answered at each place it appears (representations.ts)
    const distinct = distinctRepresentations(representations);
    if (!distinct) return this.processEntities(options);
    const once = { ...options, request: { ...request, variables: { ...request.variables, representations: distinct.representations } } } as ProcessOptions;
    return this.processEntities(once).then((answer) => expandEntities(answer, distinct)) as ProcessResult;
  }

  /** An entity fetch: batched with the operation's other queries to this subgraph at the same time. */
  private processEntities(options: ProcessOptions): ProcessResult {
    const { context, request } = options;
    if (!context || !("subgraphFetches" in context) || !request.query) return super.process(options);
    const { shape } = batchShapes.memo(request.query);
    if (!shape) return super.process(options);
    // a batch's queries are each a root field of its request: at most as many as the subgraph's
    // GRAPHQL_MAX_ROOT_FIELDS, so that no batch is one the subgraph refuses (30 aliased lookups
    // of a client operation: two requests of 15 rather than 60 errors)
    const batch = getBatchingExecutor(context, this.sendBatch as never, { maxBatchSize: this.maxBatch }, batchSources as never) as unknown as BatchExecutor;
    return batch({ document: shape, variables: request.variables as Record<string, unknown> | undefined, operationType: "query", context: options }) as ProcessResult;
  }

  /** One request for the queries batched together (or the one query alone, as the plan wrote it). */
  private readonly sendBatch = async (batched: BatchRequest): ProcessResult => {
    const options = batched.context!;
    const query = await batchText(batched);
    return super.process({ ...options, request: { ...options.request, query, variables: batched.variables } } as ProcessOptions);
  };
}

/** The request `RemoteGraphQLDataSource` hands its `sendRequest`: node-fetch's `Headers` in `http`. */
interface SentRequest {
  http: { method: string; url: string; headers: { raw(): Record<string, string[]> } };
  [member: string]: unknown;
}

/**
 * `RemoteGraphQLDataSource.sendRequest` without the node-fetch `Request` it builds on every fetch
 * only to hand it to `didEncounterError` (which this data source leaves as it is: rethrow), and
 * with the headers read from node-fetch's own map rather than through its sorting iterator. The
 * two were a third of the fetch path's CPU in the gateway's profile (bench/results.md). The
 * library declares the method private, so it is replaced on the prototype; every fetch path
 * (answers, a subgraph's 4xx with errors, 5xx, deadlines) runs through it in the tests.
 */
async function sendRequest(this: PatchedDataSource, request: SentRequest): Promise<object> {
  const { http, ...body } = request;
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(http.headers.raw())) headers[name.toLowerCase()] = values.join(", ");
  const response = await this.fetcher(http.url, { method: http.method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw await this.errorFromResponse(response);
  const answer = await this.parseBody(response);
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) throw new Error(`Expected JSON response body, but received: ${String(answer)}`);
  return { ...answer, http: response };
}
/** Puts `sendRequest` on the patched data source's prototype; only once internals.ts's check has passed (seams.ts). */
export function installSendRequest(): void {
  Object.defineProperty(PatchedDataSource.prototype, "sendRequest", { value: sendRequest, writable: true, configurable: true });
}
