import { GraphQLError } from "graphql";
import { ErrorCode } from "../../../platform/error-codes.js";
import { publicPath } from "./routes.js";

/**
 * One error type for every failed upstream call, and its mapping to the error codes of docs/graph.md#error-codes.
 * Nothing of an upstream body is kept except the short, structured parts that are meant for the
 * caller (problem `detail` and `errors`, legacy `message` and `rule`), and never a header.
 */

/** The codes a failed upstream call maps to (out of the one set, ErrorCode). */
export type UpstreamErrorCode = Extract<
  ErrorCode,
  "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "BAD_USER_INPUT" | "CONFLICT" | "RATE_LIMITED" | "UPSTREAM_UNAVAILABLE" | "WRITE_OUTCOME_UNKNOWN"
>;

export type UpstreamErrorReason = "http" | "timeout" | "network" | "unauthenticated" | "circuit";

export interface UpstreamErrorInit {
  method: string;
  path: string;
  status: number | null;
  reason: UpstreamErrorReason;
  /** HTTP reason phrase, timeout or network error code: the tail of the message */
  summary?: string;
  fields?: Record<string, string[]>;
  retryAfter?: number;
  detail?: string;
  rule?: number;
  /** overrides the code derived from the status (the token endpoint's refusals are UNAUTHENTICATED) */
  code?: UpstreamErrorCode;
}

const MAX_TEXT = 300;
const MAX_FIELDS = 50;

export class UpstreamError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly reason: UpstreamErrorReason;
  readonly fields?: Record<string, string[]>;
  readonly retryAfter?: number;
  readonly detail?: string;
  readonly rule?: number;
  readonly code: UpstreamErrorCode;

  constructor(init: UpstreamErrorInit) {
    const path = stripQuery(init.path);
    const tail =
      init.reason === "http"
        ? `${init.status}${init.summary ? ` ${init.summary}` : ""}`
        : init.reason === "timeout"
          ? `timed out${init.summary ? ` (${init.summary})` : ""}`
          : init.reason === "network"
            ? `connection failed${init.summary ? ` (${init.summary})` : ""}`
            : init.reason === "circuit"
              ? "not sent: the directory failed repeatedly just before; it is tried again in a few seconds"
              : "no caller credentials to forward";
    const unknown = init.code === ErrorCode.WRITE_OUTCOME_UNKNOWN ? "; the write may or may not have been applied: read the item again before retrying" : "";
    // the message reaches callers: the path without its API prefix (`path` keeps it, for the logs)
    super(`${init.method} ${publicPath(path)} failed: ${tail}${unknown}`);
    this.name = "UpstreamError";
    this.method = init.method;
    this.path = path;
    this.status = init.status;
    this.reason = init.reason;
    if (init.fields !== undefined) this.fields = init.fields;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.detail !== undefined) this.detail = init.detail;
    if (init.rule !== undefined) this.rule = init.rule;
    this.code = init.code ?? codeFor(init.reason, init.status);
  }
}

function codeFor(reason: UpstreamErrorReason, status: number | null): UpstreamErrorCode {
  if (reason === "unauthenticated") return ErrorCode.UNAUTHENTICATED;
  if (reason !== "http" || status === null) return ErrorCode.UPSTREAM_UNAVAILABLE;
  switch (status) {
    case 400:
    case 422:
      return ErrorCode.BAD_USER_INPUT;
    case 401:
      return ErrorCode.UNAUTHENTICATED;
    case 403:
      return ErrorCode.FORBIDDEN;
    case 404:
      return ErrorCode.NOT_FOUND;
    case 409:
    case 412:
      return ErrorCode.CONFLICT;
    case 429:
      return ErrorCode.RATE_LIMITED;
    default:
      // any other answer (5xx, or a 4xx the facade does not expect) is the upstream's failure, not the caller's
      return ErrorCode.UPSTREAM_UNAVAILABLE;
  }
}

function stripQuery(path: string): string {
  const q = path.search(/[?#]/);
  return q === -1 ? path : path.slice(0, q);
}

/**
 * The caller-safe parts of an error body: problem details (`detail`, `errors`) or the legacy
 * shape (`message`, `rule`). Texts are shortened; anything else of the body is dropped.
 */
export function safeErrorParts(body: unknown): Pick<UpstreamErrorInit, "fields" | "detail" | "rule"> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const out: Pick<UpstreamErrorInit, "fields" | "detail" | "rule"> = {};
  const detail = typeof b.detail === "string" ? b.detail : typeof b.message === "string" ? b.message : undefined;
  if (detail !== undefined && detail !== "") out.detail = shorten(detail);
  if (typeof b.rule === "number" && Number.isInteger(b.rule)) out.rule = b.rule;
  if (typeof b.errors === "object" && b.errors !== null && !Array.isArray(b.errors)) {
    const fields: Record<string, string[]> = {};
    for (const [name, messages] of Object.entries(b.errors as Record<string, unknown>).slice(0, MAX_FIELDS)) {
      const list = Array.isArray(messages) ? messages : [messages];
      fields[shorten(name)] = list.filter((m): m is string => typeof m === "string").slice(0, 10).map(shorten);
    }
    out.fields = fields;
  }
  return out;
}

function shorten(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/** `extensions` for a GraphQL error: { code, upstream: {method, path (without its API prefix), status}, fields?, retryAfter? } */
export function errorExtensions(err: UpstreamError): Record<string, unknown> {
  const ext: Record<string, unknown> = {
    code: err.code,
    upstream: { method: err.method, path: publicPath(err.path), status: err.status },
  };
  if (err.fields !== undefined) ext.fields = err.fields;
  if (err.retryAfter !== undefined) ext.retryAfter = err.retryAfter;
  if (err.rule !== undefined) ext.rule = err.rule;
  return ext;
}

const INTERNAL_MESSAGE = "Internal server error";

/**
 * The operation would make more upstream calls than one subgraph request may
 * (`DIRECTORY_CALL_BUDGET`): it stops instead of calling on.
 */
export function budgetExceeded(limit: number): GraphQLError {
  return new GraphQLError(
    `This operation needs more than ${limit} calls to the directory, the most one request may make: ask for fewer items or fewer nested lists, or split it.`,
    { extensions: { code: ErrorCode.UPSTREAM_BUDGET_EXCEEDED, limit } },
  );
}

/** The request's deadline (`x-deadline-ms`, at most `SUBGRAPH_DEADLINE_MS`) has passed. */
export function deadlineExceeded(deadlineMs: number): GraphQLError {
  return new GraphQLError(`The directory did not answer within this request's deadline of ${deadlineMs} ms.`, {
    extensions: { code: ErrorCode.DEADLINE_EXCEEDED, limit: deadlineMs },
  });
}

/**
 * Any thrown value → a GraphQLError with its code (docs/graph.md#error-codes). An UpstreamError (also when graphql-js
 * has wrapped it with a path) is mapped; a GraphQLError of our own is passed through; anything
 * else is a bug whose message may hold internals, so it becomes a generic INTERNAL_SERVER_ERROR.
 */
export function toGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) {
    const original = err.originalError;
    if (original === undefined || original === null || original instanceof GraphQLError) return err;
    return new GraphQLError(messageFor(original), {
      nodes: err.nodes,
      source: err.source,
      positions: err.positions,
      path: err.path,
      extensions: extensionsFor(original),
    });
  }
  return new GraphQLError(messageFor(err), { extensions: extensionsFor(err) });
}

function messageFor(err: unknown): string {
  if (err instanceof UpstreamError) return err.detail !== undefined ? `${err.message}: ${err.detail}` : err.message;
  return INTERNAL_MESSAGE;
}

function extensionsFor(err: unknown): Record<string, unknown> {
  if (err instanceof UpstreamError) return errorExtensions(err);
  return { code: ErrorCode.INTERNAL_SERVER_ERROR };
}
