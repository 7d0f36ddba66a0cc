import { describe, expect, it } from "vitest";
import { MIN_ATTEMPT_MS, attemptTimeout, parseRetryAfter, retryDelay, type Failure } from "../../subgraphs/shared/upstream/retry.js";

/** The retry policy as pure functions: the same decisions the client's tests observe over HTTP, without a server. */

const policy = { retries: 2, maxRetryAfterSeconds: 10, retryBaseDelayMs: 100 };
const read = { idempotent: true, retriesLeft: 2, leftMs: 10_000 };
const write = { ...read, idempotent: false };
const failure = (f: Partial<Failure>): { failure: Failure } => ({ failure: { reason: "network", summary: "X", retriable: false, notSent: false, ...f } });
const refused = failure({ summary: "ECONNREFUSED", retriable: true, notSent: true });
const reset = failure({ summary: "ECONNRESET", retriable: true });
const hung = failure({ reason: "timeout", summary: "request timeout" });

describe("retryDelay", () => {
  it("retries a read on 502, 503, 504 with jittered exponential backoff (0.5–1.5 × base × 2^retry)", () => {
    for (const status of [502, 503, 504]) {
      expect(retryDelay({ status }, read, policy, 0)).toBe(50);
      expect(retryDelay({ status }, read, policy, 0.999)).toBeCloseTo(149.9);
      expect(retryDelay({ status }, { ...read, retriesLeft: 1 }, policy, 0.5)).toBe(200);
    }
  });

  it("does not retry a client error, a 500 or a success", () => {
    for (const status of [200, 304, 400, 401, 403, 404, 409, 412, 500]) expect(retryDelay({ status }, read, policy, 0.5)).toBeNull();
  });

  it("gives up when no retry is left or the backoff does not fit before the deadline", () => {
    expect(retryDelay({ status: 503 }, { ...read, retriesLeft: 0 }, policy, 0.5)).toBeNull();
    expect(retryDelay({ status: 503 }, { ...read, leftMs: 100 }, policy, 0.5)).toBeNull();
    expect(retryDelay({ status: 503 }, { ...read, leftMs: 101 }, policy, 0.5)).toBe(100);
  });

  it("waits a 429's Retry-After when it is within the maximum and before the deadline, else gives up", () => {
    expect(retryDelay({ status: 429, retryAfter: 2 }, read, policy, 0.5)).toBe(2000);
    expect(retryDelay({ status: 429 }, read, policy, 0.5)).toBe(100);
    expect(retryDelay({ status: 429, retryAfter: 11 }, read, policy, 0.5)).toBeNull();
    expect(retryDelay({ status: 429, retryAfter: 2 }, { ...read, leftMs: 2000 }, policy, 0.5)).toBeNull();
  });

  it("never repeats a write that got an answer", () => {
    for (const status of [429, 502, 503, 504]) expect(retryDelay({ status, retryAfter: 1 }, write, policy, 0.5)).toBeNull();
  });

  it("repeats a write only when it provably never left (connection refused), a read on any network failure or timeout", () => {
    expect(retryDelay(refused, write, policy, 0.5)).toBe(100);
    expect(retryDelay(reset, write, policy, 0.5)).toBeNull();
    expect(retryDelay(hung, write, policy, 0.5)).toBeNull();
    expect(retryDelay(reset, read, policy, 0.5)).toBe(100);
    expect(retryDelay(hung, read, policy, 0.5)).toBe(100);
    expect(retryDelay(failure({ summary: "ERR_UNKNOWN" }), read, policy, 0.5)).toBeNull();
  });

  it("after a failure, waits no longer than the deadline allows", () => {
    expect(retryDelay(reset, { ...read, leftMs: 30 }, policy, 0.5)).toBe(30);
    expect(retryDelay(reset, { ...read, leftMs: -5 }, policy, 0.5)).toBe(0);
  });
});

describe("attemptTimeout", () => {
  it("gives a read its share of what is left, at least MIN_ATTEMPT_MS, at most the configured timeout", () => {
    expect(attemptTimeout(9000, { idempotent: true, retriesLeft: 2 }, 10_000)).toBe(3000);
    expect(attemptTimeout(300, { idempotent: true, retriesLeft: 2 }, 10_000)).toBe(MIN_ATTEMPT_MS);
    expect(attemptTimeout(150, { idempotent: true, retriesLeft: 2 }, 10_000)).toBe(150);
    expect(attemptTimeout(90_000, { idempotent: true, retriesLeft: 2 }, 10_000)).toBe(10_000);
  });

  it("gives a write, sent once, all that is left", () => {
    expect(attemptTimeout(9000, { idempotent: false, retriesLeft: 2 }, 10_000)).toBe(9000);
    expect(attemptTimeout(0.2, { idempotent: false, retriesLeft: 2 }, 10_000)).toBe(1);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates; ignores what it cannot read", () => {
    const now = Date.parse("2026-06-15T12:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter(" 7 ", now)).toBe(7);
    expect(parseRetryAfter("Mon, 15 Jun 2026 12:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Mon, 15 Jun 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
