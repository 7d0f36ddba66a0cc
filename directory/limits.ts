import type { IncomingMessage } from "node:http";

export { PRODUCTION_LIMITS, type DirectoryLimits } from "../contract/limits.js";

/**
 * A sliding-window log: the times of the requests let through in the last window. A request is
 * let through while fewer than `requests` were in the window; a refused one takes no slot, and its
 * Retry-After is the whole seconds until the oldest slot of the window frees.
 */
export class SlidingWindow {
  private readonly times: number[] = [];

  constructor(
    readonly requests: number,
    readonly windowSeconds: number,
  ) {}

  /** null: let through (and counted); else the seconds until a slot frees */
  take(now = Date.now()): number | null {
    const windowMs = this.windowSeconds * 1000;
    while (this.times.length > 0 && this.times[0]! <= now - windowMs) this.times.shift();
    if (this.times.length < this.requests) {
      this.times.push(now);
      return null;
    }
    return Math.max(1, Math.ceil((this.times[0]! + windowMs - now) / 1000));
  }
}

/** The request's header section as sent (names, values, `: ` and CRLF), the size production limits. */
export function headerBytes(req: IncomingMessage): number {
  let bytes = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(req.rawHeaders[i]!) + Buffer.byteLength(req.rawHeaders[i + 1]!) + 4;
  return bytes;
}

/** Whether a path is one of the tenant's API requests production counts (not the token endpoint). */
export function countsAgainstLimit(path: string): boolean {
  return path !== "/connect/token";
}
