import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { GraphQLError } from "graphql";
import { LRUCache } from "lru-cache";
import { keepAliveAgents, wroteToClosedSocket } from "../platform/keep-alive.js";
import { DEADLINE_HEADER, FILES_BASE_HEADER } from "../platform/headers.js";
import { processMetrics } from "../platform/metrics.js";
import { endClientSpan, startClientSpan } from "../platform/request-scope.js";
import { ErrorCode } from "../platform/error-codes.js";
import type { InFlight } from "../platform/inflight.js";

/** The operation's time is up: what the client sees for the parts that were not fetched in time. */
export class DeadlineExceededError extends GraphQLError {
  constructor() {
    super("The operation's deadline was exceeded before this subgraph answered", { extensions: { code: ErrorCode.DEADLINE_EXCEEDED } });
  }
}

/**
 * A subgraph that cannot be reached (connection refused or reset, DNS) or answers 502, 503 or 504
 * (a proxy's, or its own while it stops): the client sees which part of the graph is missing and
 * that retrying may help, never the subgraph's address (docs/graph.md#error-codes).
 */
export class SubgraphUnavailableError extends GraphQLError {
  constructor(subgraph: string) {
    super(`The ${subgraph} subgraph cannot be reached; retry later`, { extensions: { code: ErrorCode.SUBGRAPH_UNAVAILABLE, subgraph, retryable: true } });
  }
}

/**
 * A mutation fetch that was sent and got no answer (the operation's deadline passed, the
 * connection dropped, a proxy's 502 or 504): the subgraph may have applied the write, so the
 * client is told so, and what to do, rather than DEADLINE_EXCEEDED or SUBGRAPH_UNAVAILABLE, which
 * would invite a blind retry (docs/graph.md#error-codes).
 */
export class WriteOutcomeUnknownError extends GraphQLError {
  constructor(subgraph: string) {
    super(`The ${subgraph} subgraph did not answer this write in time; it may or may not have been applied: read the item again before retrying`, {
      extensions: { code: ErrorCode.WRITE_OUTCOME_UNKNOWN, subgraph },
    });
  }
}

/**
 * What a mutation fetch leaves its subgraph of the operation's time: its deadline ends this much
 * before the gateway's, so that the subgraph's own account of the write (applied, refused,
 * WRITE_OUTCOME_UNKNOWN once its retries are cut) comes back before the gateway stops waiting.
 * A fifth of the time left, at most a second.
 */
function writeDeadlineMs(remaining: number): number {
  return Math.max(1, Math.floor(remaining - Math.min(1000, remaining / 5)));
}

/** connection errors raised before anything of the request was sent: a write that meets one was not applied */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** A request written to a kept-alive socket the subgraph had closed: it never read it (platform/keep-alive.ts). */
class UnreadRequestError extends Error {}

/** A subgraph's answer, read whole: shared by the identical fetches in flight. */
export interface SubgraphAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/**
 * A subgraph fetch bounded by the operation's deadline (the `x-deadline-ms` header the data source
 * sets; the gateway's own requests carry none and are not bounded here). The body is read within
 * the deadline too. A subgraph's 4xx answer with a GraphQL body (a variable its scalar refuses, a
 * validation error) is handed on as a GraphQL response, so that its errors reach the client with
 * their codes, instead of a "400: Bad Request" carrying the subgraph's URL and body.
 */
/**
 * What a fetch is, by the body the data source sends (`{"query":"<operation>",...}`): a query
 * plan's read is `query ...` or `{...}`, its write `mutation ...`.
 */
type FetchKind = "read" | "write" | "other";

function fetchKind(body: string | null): FetchKind {
  if (body === null) return "other";
  if (body.startsWith('{"query":"query') || body.startsWith('{"query":"{')) return "read";
  return body.startsWith('{"query":"mutation') ? "write" : "other";
}

async function fetchWithinDeadline(subgraph: string, url: string, init: RequestInit & { headers: Record<string, string> }, kind: FetchKind): Promise<SubgraphAnswer> {
  const header = init.headers[DEADLINE_HEADER];
  const remaining = header === undefined ? undefined : Number(header);
  // nothing sent yet: the deadline is the truth, even for a write
  if (remaining !== undefined && remaining <= 0) throw new DeadlineExceededError();
  const deadline = remaining === undefined ? undefined : performance.now() + remaining;
  const write = kind === "write";
  if (write && remaining !== undefined) init.headers[DEADLINE_HEADER] = String(writeDeadlineMs(remaining));
  let answer: SubgraphAnswer;
  const metrics = processMetrics();
  const stopTimer = metrics.subgraphFetchDuration.startTimer({ subgraph });
  // the hop's CLIENT span, under @apollo/gateway's (INTERNAL) `gateway.fetch`: one per request sent
  const span = startClientSpan("POST", subgraphTarget(url), { "directory_graph.subgraph": subgraph }, init.headers);
  try {
    answer = await post(url, init, deadline, kind === "read");
  } catch (err) {
    const timeout = err instanceof DeadlineExceededError;
    endClientSpan(span, { failure: timeout ? "timeout" : "unreachable" });
    metrics.subgraphFetches.inc({ subgraph, status: timeout ? "timeout" : "error" });
    stopTimer();
    if (write && !(err instanceof UnreadRequestError) && !NOT_SENT.has((err as NodeJS.ErrnoException).code ?? "")) throw new WriteOutcomeUnknownError(subgraph);
    if (timeout) throw err;
    // the subgraph could not be reached or dropped the connection (ECONNREFUSED, ECONNRESET,
    // ENOTFOUND, ...): retryable, and named without its address
    throw new SubgraphUnavailableError(subgraph);
  }
  endClientSpan(span, { status: answer.status });
  metrics.subgraphFetches.inc({ subgraph, status: String(answer.status) });
  stopTimer();
  // a subgraph's own 503 refuses before running (it is stopping); a proxy's 502 or 504 may come after the write ran
  if (write && (answer.status === 502 || answer.status === 504)) throw new WriteOutcomeUnknownError(subgraph);
  if (answer.status === 502 || answer.status === 503 || answer.status === 504) throw new SubgraphUnavailableError(subgraph);
  if (answer.status >= 400 && answer.status < 500 && hasGraphQLErrors(answer.text)) answer.status = 200;
  return answer;
}

/**
 * Keep-alive agents for the subgraph requests, whose idle sockets retire a second before the
 * `Keep-Alive: timeout=5` the subgraph server announces (platform/keep-alive.ts; the data
 * source's default agent kept them for ever).
 */
const agents = keepAliveAgents();

/**
 * One subgraph request over node:http, its answer read whole: what the data source needs of a
 * fetch, without the WHATWG Request, Response and body streams Node's fetch builds on every call
 * (the largest cost of the gateway's own per-request work in its profile after the subgraphs'
 * batching; Hive Gateway's fetch is node:http too).
 */
export function post(url: string, init: RequestInit & { headers: Record<string, string> }, deadline: number | undefined, read: boolean): Promise<SubgraphAnswer> {
  return new Promise((resolve, reject) => {
    const target = subgraphTarget(url);
    const secure = target.protocol === "https:";
    const send = secure ? httpsRequest : httpRequest;
    let timedOut = false;
    const fail = (err: unknown) => {
      clearTimeout(timer);
      reject(timedOut ? new DeadlineExceededError() : err);
    };
    const req = send(target, { method: init.method ?? "POST", headers: init.headers, agent: secure ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("error", fail);
      res.once("end", () => {
        clearTimeout(timer);
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        resolve({ status: res.statusCode ?? 502, statusText: res.statusMessage ?? "", headers, text: Buffer.concat(chunks).toString("utf8") });
      });
    });
    // the deadline ends the request and the reading of its answer: one timer, where an
    // AbortSignal.timeout and the listeners node:http hangs on it were a twentieth of the
    // gateway's CPU (bench/results.md)
    const timer = deadline === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, Math.max(0, deadline - performance.now())).unref();
    // a read written to a socket the subgraph had just closed goes again, once, on a new one; a
    // write does not: whether it was read is not known
    req.once("error", (err) => {
      if (!timedOut && read && wroteToClosedSocket(req, err)) {
        clearTimeout(timer);
        resolve(post(url, init, deadline, false));
      } else fail(!timedOut && wroteToClosedSocket(req, err) ? new UnreadRequestError() : err);
    });
    req.end(typeof init.body === "string" ? init.body : undefined);
  });
}

/** The subgraphs' URLs, parsed once: a gateway fetches the same three over and over. */
const subgraphTargets = new LRUCache<string, URL>({ max: 64, memoMethod: (url) => new URL(url) });
const subgraphTarget = (url: string): URL => subgraphTargets.memo(url);

/**
 * The subgraph fetcher: identical query fetches in flight (same subgraph, same caller
 * `authorization`, same links' base (FILES_BASE_HEADER), same body: operation and variables) are sent once and each caller parses its
 * own copy of the answer. Mutations are always sent, and no query asked after one joins a query
 * that started before it. The deadline header is left out of the key:
 * it differs by the millisecond between callers of the same fetch. A joiner whose first caller
 * ran out of time fetches on its own. The header `x-operation-id` is left out too: an operation that
 * joins another's fetch is answered from that operation's loaders.
 */
/** A subgraph request as the data source makes it (its headers a plain object), answered whole. */
export type SubgraphFetch = (url: string, init: RequestInit & { headers: Record<string, string> }) => Promise<SubgraphAnswer>;

export function subgraphFetcher(
  subgraph: string,
  inflight: InFlight<SubgraphAnswer>,
  rememberRefusedToken: (init: RequestInit & { headers: Record<string, string> }, answer: SubgraphAnswer) => Promise<void>,
): SubgraphFetch {
  return async (url, init) => {
    const body = typeof init.body === "string" ? init.body : null;
    const kind = fetchKind(body);
    let answer: SubgraphAnswer;
    // the links' base is the caller's too: an answer's file links name it (a made-up Host must not reach another caller)
    if (kind === "read") answer = await inflight.run(`${url}\n${init.headers.authorization ?? ""}\n${init.headers[FILES_BASE_HEADER] ?? ""}\n${body}`, () => fetchWithinDeadline(subgraph, url, init, kind));
    else {
      // read-your-writes: no query asked after a mutation joins one that started before it
      inflight.forget();
      answer = await fetchWithinDeadline(subgraph, url, init, kind).finally(() => inflight.forget());
    }
    await rememberRefusedToken(init, answer);
    return answer;
  };
}

function hasGraphQLErrors(text: string): boolean {
  try {
    const body = JSON.parse(text) as { errors?: unknown };
    return Array.isArray(body.errors) && body.errors.length > 0;
  } catch {
    return false;
  }
}
