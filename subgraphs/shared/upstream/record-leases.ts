import { randomBytes } from "node:crypto";
import type { GraphQLError } from "graphql";
import { ErrorCode, codedError } from "../../../platform/error-codes.js";
import { SharedStateUnavailable, type SharedState } from "../../../platform/shared-state.js";
import { sleep } from "./util.js";

/**
 * One write at a time per record (docs/decisions.md#writes-are-serialised-per-record). A legacy
 * PUT replaces the whole record and the legacy API has no precondition (no ETag, no `If-Match`),
 * so a write that reads, merges and writes back holds its record for the whole of it: first in
 * this process (a queue per record), then, with REDIS_URL, across every replica by a lease in
 * Redis. What a write that does not go through the facade can still overwrite is said there too.
 *
 * The lease is Redis's single-instance lock: `SET key token NX PX ttl` with a random token, and a
 * release that deletes the key only if it still holds that token (a Lua compare-and-delete), so
 * that a holder whose lease expired never releases its successor's. Written by hand: Redlock's
 * package for ioredis is a beta that pins an older ioredis, and it adds the multi-instance
 * algorithm this one Redis does not need.
 *
 * The lease lasts the session's deadline plus `LEASE_MARGIN_MS`: no upstream request of the
 * session outlives its deadline (client.ts cuts every attempt at it), so the holder's PUT is sent
 * while it holds the lease, and a replica that dies holding one frees it within that time.
 * A waiter polls with a doubling, jittered delay, for at most half its session's deadline (the
 * other half is the write's); then it answers CONFLICT, retryable, having written nothing.
 */

const LEASE_MARGIN_MS = 2000;
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

/** deletes the key only while it holds the caller's token */
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export class RecordLeases {
  /** per record: the promise that settles when the last write queued in this process is done */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly shared: SharedState) {}

  /**
   * Runs `task` holding `record` (e.g. `timeentries/42`) in this process and, with Redis, across
   * replicas; `deadlineMs` is the session's. Refuses with CONFLICT when the record stays held for
   * half of it, and with UPSTREAM_UNAVAILABLE when Redis is configured but does not answer: a
   * write without the lease could overwrite another replica's (both retryable, nothing written).
   */
  async hold<T>(record: string, deadlineMs: number, task: () => Promise<T>): Promise<T> {
    const waitUntil = performance.now() + deadlineMs / 2;
    const release = await this.queue(record, waitUntil);
    try {
      if (!this.shared.enabled) return await task();
      const token = await this.lease(record, deadlineMs + LEASE_MARGIN_MS, waitUntil);
      try {
        return await task();
      } finally {
        // a failed release leaves the lease to expire on its own
        await this.shared.required("write-lease", (redis) => redis.eval(RELEASE, 1, leaseKey(record), token)).catch(() => undefined);
      }
    } finally {
      release();
    }
  }

  /** Waits for the writes of `record` queued before this one in this process; the release. */
  private async queue(record: string, waitUntil: number): Promise<() => void> {
    const before = this.queues.get(record) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    // the writes queued after this one wait for it and for those before it, even if it gives up
    const last = Promise.all([before, mine]).then(() => undefined);
    this.queues.set(record, last);
    const done = () => {
      release();
      if (this.queues.get(record) === last) this.queues.delete(record);
    };
    let timer: NodeJS.Timeout | undefined;
    const turn = await Promise.race([
      before.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, waitUntil - performance.now())))),
    ]);
    clearTimeout(timer);
    if (!turn) {
      done();
      throw busy();
    }
    return done;
  }

  /** The lease of `record` in Redis, polled for until `waitUntil`; its token. */
  private async lease(record: string, ttlMs: number, waitUntil: number): Promise<string> {
    const token = randomBytes(16).toString("hex");
    let delay = FIRST_POLL_MS;
    for (;;) {
      let taken: string | null;
      try {
        taken = await this.shared.required("write-lease", (redis) => redis.set(leaseKey(record), token, "PX", Math.ceil(ttlMs), "NX"));
      } catch (err) {
        if (err instanceof SharedStateUnavailable) throw leaseUnavailable();
        throw err;
      }
      if (taken === "OK") return token;
      const wait = delay / 2 + Math.random() * delay;
      if (performance.now() + wait > waitUntil) throw busy();
      await sleep(wait);
      delay = Math.min(delay * 2, MAX_POLL_MS);
    }
  }
}

function leaseKey(record: string): string {
  return `write-lease:${record}`;
}

function busy(): GraphQLError {
  return codedError(ErrorCode.CONFLICT, "Another write to this record is still in progress; nothing was written: retry.", { retryable: true });
}

function leaseUnavailable(): GraphQLError {
  return codedError(ErrorCode.UPSTREAM_UNAVAILABLE, "The shared state that serialises writes across replicas cannot be reached; nothing was written: retry.", { retryable: true });
}
