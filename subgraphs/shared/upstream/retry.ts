import { RequestError, TimeoutError } from "got";

/**
 * The transport policy of the upstream client, as pure functions of what happened: whether an
 * attempt is retried and after how long (`retryDelay`), and how long an attempt may take
 * (`attemptTimeout`). `Upstream` (client.ts) applies them; nothing here sends or waits.
 *
 * - Idempotent requests (GETs, token requests, and the legacy PUTs, which replace a whole entity
 *   so that sending one twice leaves what sending it once does) are retried on 429 within
 *   `maxRetryAfterSeconds`, on 502/503/504, on connection failures and on timeouts, with
 *   jittered exponential backoff.
 * - A POST is retried only when it provably never left this process (connection refused, DNS
 *   failure, connect timeout); once it may have reached the upstream it is sent once.
 * - A write that may have been applied (no answer once sent, a proxy's 502/504) and that no later
 *   attempt settled answers WRITE_OUTCOME_UNKNOWN (client.ts).
 * - Every wait fits within what is left of the request's deadline.
 */

/** an attempt's share of the deadline is never below this (unless less than this is left) */
export const MIN_ATTEMPT_MS = 200;
export const MAX_CONNECT_TIMEOUT_MS = 5000;
// 408: the directory aborted a request that ran over its duration limit; it did not finish it
const RETRIABLE_STATUSES = new Set([408, 502, 503, 504]);
/**
 * Answers of a proxy in front of the upstream that gave up waiting for it (502, 504): the write
 * may have been applied behind it. A 503 is the upstream refusing the request before doing it.
 */
const WRITE_UNKNOWN_STATUSES = new Set([502, 504]);
/** failures where the request cannot have reached the upstream: safe to repeat even for a write */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
/** failures after which a read may be repeated */
const RETRIABLE_NETWORK_CODES = new Set([...NOT_SENT_CODES, "ECONNRESET", "EPIPE", "ECONNABORTED", "ESOCKETTIMEDOUT"]);

/** An attempt that got no answer. */
export interface Failure {
  reason: "timeout" | "network";
  summary: string;
  retriable: boolean;
  /** the request cannot have reached the upstream */
  notSent: boolean;
}

export function classifyFailure(err: unknown): Failure {
  if (err instanceof TimeoutError) {
    // a connect or DNS timeout means nothing was sent; a timeout later on means it may have been
    const early = err.event === "connect" || err.event === "lookup";
    return { reason: "timeout", summary: `${err.event} timeout`, retriable: early, notSent: early };
  }
  const code = err instanceof RequestError ? err.code : typeof (err as { code?: unknown })?.code === "string" ? (err as { code: string }).code : "ERR_UNKNOWN";
  return { reason: "network", summary: code, retriable: RETRIABLE_NETWORK_CODES.has(code), notSent: NOT_SENT_CODES.has(code) };
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** What the configuration says about retries (UpstreamConfig's fields). */
export interface RetryPolicy {
  retries: number;
  maxRetryAfterSeconds: number;
  /** base delay of the jittered exponential backoff */
  retryBaseDelayMs: number;
}

/** Where a request stands when one of its attempts failed. */
export interface RetryState {
  /** GETs, PUTs and token requests */
  idempotent: boolean;
  /** retries not used yet (the policy's `retries` at the first attempt) */
  retriesLeft: number;
  /** ms left before the request's deadline */
  leftMs: number;
}

/** What one attempt ended with: an HTTP status (and its Retry-After, in seconds), or no answer. */
export type AttemptOutcome = { status: number; retryAfter?: number } | { failure: Failure };

/**
 * How long to wait before retrying the attempt, or null not to retry. `random` (0 ≤ random < 1)
 * jitters the backoff between 0.5 and 1.5 times its base.
 */
export function retryDelay(outcome: AttemptOutcome, state: RetryState, policy: RetryPolicy, random: number = Math.random()): number | null {
  if (state.retriesLeft <= 0) return null;
  const backoff = policy.retryBaseDelayMs * 2 ** (policy.retries - state.retriesLeft) * (0.5 + random);
  if ("failure" in outcome) {
    const { failure } = outcome;
    const retriable = failure.retriable || (state.idempotent && failure.reason === "timeout");
    if (!retriable || !(state.idempotent || failure.notSent)) return null;
    return Math.max(0, Math.min(backoff, state.leftMs));
  }
  if (!state.idempotent) return null;
  if (outcome.status === 429) {
    const wait = outcome.retryAfter !== undefined ? outcome.retryAfter * 1000 : backoff;
    const waitable = (outcome.retryAfter === undefined || outcome.retryAfter <= policy.maxRetryAfterSeconds) && wait < state.leftMs;
    return waitable ? wait : null;
  }
  if (RETRIABLE_STATUSES.has(outcome.status) && backoff < state.leftMs) return backoff;
  return null;
}

/**
 * The timeout of one attempt: an idempotent request shares what is left of the deadline with its possible
 * retries (at least MIN_ATTEMPT_MS of it), a POST, sent once, has it all; never more than the
 * configured `timeoutMs`.
 */
export function attemptTimeout(leftMs: number, state: Omit<RetryState, "leftMs">, timeoutMs: number): number {
  const share = state.idempotent ? Math.max(leftMs / (state.retriesLeft + 1), Math.min(leftMs, MIN_ATTEMPT_MS)) : leftMs;
  return Math.max(1, Math.floor(Math.min(timeoutMs, share)));
}

/** A write's answer after which nobody knows whether it was applied. */
export function writeOutcomeUnknown(status: number): boolean {
  return WRITE_UNKNOWN_STATUSES.has(status);
}
