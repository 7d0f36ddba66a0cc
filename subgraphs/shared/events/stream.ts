import type { ChangeFeed, DirectoryChange } from "./feed.js";

/** A subscriber whose queue overflowed: it is ended with this reason, the others are not slowed. */
export class SlowSubscriber extends Error {
  constructor(readonly queued: number) {
    super(`subscription closed: the subscriber fell ${queued} changes behind (too slow)`);
  }
}

/**
 * The changes of `feed` that pass `accept`, as an async iterator for one subscriber, with a
 * bounded queue: the feed's publish never waits for a subscriber, and a subscriber `max` changes
 * behind is ended with SlowSubscriber rather than hold memory or stall the feed. `return()` (the
 * client gone, the server draining) stops listening at once.
 */
export function changesOf(feed: ChangeFeed, accept: (change: DirectoryChange) => boolean, max: number): AsyncIterableIterator<DirectoryChange> {
  const queue: DirectoryChange[] = [];
  let waiting: ((result: IteratorResult<DirectoryChange>) => void) | null = null;
  let failed: ((err: Error) => void) | null = null;
  let ended = false;
  let error: Error | null = null;
  const stop = feed.listen((change) => {
    if (ended || !accept(change)) return;
    if (waiting) {
      const resolve = waiting;
      waiting = failed = null;
      resolve({ value: change, done: false });
      return;
    }
    if (queue.length >= max) {
      error = new SlowSubscriber(queue.length);
      queue.length = 0;
      end();
      return;
    }
    queue.push(change);
  });
  const end = () => {
    ended = true;
    stop();
    if (waiting) {
      const resolve = waiting;
      const reject = failed!;
      waiting = failed = null;
      if (error) reject(error);
      else resolve({ value: undefined, done: true });
    }
  };
  return {
    next() {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
      if (error) {
        const err = error;
        error = null;
        return Promise.reject(err);
      }
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        waiting = resolve;
        failed = reject;
      });
    },
    return() {
      queue.length = 0;
      error = null;
      end();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw() {
      return this.return!();
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
