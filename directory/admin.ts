import { problemBody } from "./http/errors.js";
import { HttpError, type Router } from "./http/router.js";

/**
 * Test and demo hooks of the in-process service (docs/decisions.md#test-and-demo-hooks): request statistics and fault
 * injection. The admin routes themselves are neither counted nor faulted.
 */

export class RequestStats {
  total = 0;
  byRoute: Record<string, number> = {};

  record(routeName: string): void {
    this.total++;
    this.byRoute[routeName] = (this.byRoute[routeName] ?? 0) + 1;
  }
  reset(): void {
    this.total = 0;
    this.byRoute = {};
  }
  snapshot(): { total: number; byRoute: Record<string, number> } {
    return { total: this.total, byRoute: { ...this.byRoute } };
  }
}

export interface FaultSettings {
  /** added latency of every request, in ms */
  latencyMs: number;
  /** random extra latency, 0..jitterMs */
  jitterMs: number;
  /** share of requests (0..1) answered with `errorStatus` */
  errorRate: number;
  errorStatus: number;
  /** requests per second beyond which the service answers 429 with Retry-After; 0 = unlimited */
  rateLimitPerSecond: number;
  /** share of requests (0..1) that never get an answer */
  hangRate: number;
  /**
   * share (0..1) of the representations of an answer's `embedded` served partial: `id`, `type`
   * and `url` only (the interface allows partial embedded representations)
   */
  partialEmbedRate: number;
  /** share (0..1) of the representations of an answer's `embedded` left out */
  missingEmbedRate: number;
}

const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  errorStatus: 503,
  rateLimitPerSecond: 0,
  hangRate: 0,
  partialEmbedRate: 0,
  missingEmbedRate: 0,
};

/** Longest added latency: beyond 2^31 ms a Node timer would fire at once. */
const MAX_LATENCY_MS = 600_000;

const SETTING_RULES: Record<keyof FaultSettings, { valid: (n: number) => boolean; message: string }> = {
  latencyMs: { valid: (n) => n >= 0 && n <= MAX_LATENCY_MS, message: `must be a number of ms from 0 to ${MAX_LATENCY_MS}` },
  jitterMs: { valid: (n) => n >= 0 && n <= MAX_LATENCY_MS, message: `must be a number of ms from 0 to ${MAX_LATENCY_MS}` },
  errorRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  errorStatus: { valid: (n) => Number.isInteger(n) && n >= 400 && n <= 599, message: "must be an HTTP status from 400 to 599" },
  // a share of a request per second would refuse every request
  rateLimitPerSecond: { valid: (n) => Number.isInteger(n) && n >= 0, message: "must be a whole number >= 0 (0: no limit)" },
  hangRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  partialEmbedRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  missingEmbedRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
};

export type FaultDecision =
  | { kind: "pass"; delayMs: number }
  | { kind: "error"; delayMs: number; status: number; retryAfter?: number }
  | { kind: "hang" };

export class Faults {
  private settings: FaultSettings = { ...NO_FAULTS };
  private windowStart = 0;
  private windowCount = 0;
  /** requests left hanging so far (a test's evidence that its faults took effect) */
  hung = 0;

  get current(): FaultSettings {
    return { ...this.settings };
  }

  set(input: unknown): FaultSettings {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      throw new HttpError(400, problemBody(400, "Bad Request", "fault settings must be a JSON object"));
    }
    const next = { ...NO_FAULTS };
    const errors: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(input)) {
      const rule = Object.prototype.hasOwnProperty.call(SETTING_RULES, key) ? SETTING_RULES[key as keyof FaultSettings] : undefined;
      if (!rule) errors[key] = [`unknown fault setting; known: ${Object.keys(SETTING_RULES).join(", ")}`];
      else if (typeof value !== "number" || !rule.valid(value)) errors[key] = [rule.message];
      else next[key as keyof FaultSettings] = value;
    }
    if (Object.keys(errors).length > 0) {
      throw new HttpError(400, problemBody(400, "Bad Request", "invalid fault settings", errors));
    }
    this.settings = next;
    this.windowStart = 0;
    this.windowCount = 0;
    return this.current;
  }

  clear(): void {
    this.settings = { ...NO_FAULTS };
    this.windowStart = 0;
    this.windowCount = 0;
  }

  /** Whether the embed faults are on: answers then carry no version tag (they differ from the version they would name). */
  get shapesEmbedded(): boolean {
    return this.settings.partialEmbedRate > 0 || this.settings.missingEmbedRate > 0;
  }

  /**
   * An answer's `embedded` as the embed faults shape it: each representation left out with
   * `missingEmbedRate`, else cut to `id`, `type`, `url` with `partialEmbedRate`.
   */
  shapeEmbedded(body: unknown): void {
    const s = this.settings;
    if (!this.shapesEmbedded) return;
    const embedded = typeof body === "object" && body !== null ? (body as { embedded?: unknown }).embedded : undefined;
    if (typeof embedded !== "object" || embedded === null) return;
    for (const byId of Object.values(embedded as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [id, representation] of Object.entries(byId)) {
        if (s.missingEmbedRate > 0 && Math.random() < s.missingEmbedRate) delete byId[id];
        else if (s.partialEmbedRate > 0 && Math.random() < s.partialEmbedRate) {
          byId[id] = { id: representation.id, type: representation.type, url: representation.url };
        }
      }
    }
  }

  /** What happens to the next request. */
  decide(now = Date.now()): FaultDecision {
    const s = this.settings;
    if (s.hangRate > 0 && Math.random() < s.hangRate) {
      this.hung++;
      return { kind: "hang" };
    }
    const delayMs = s.latencyMs + (s.jitterMs > 0 ? Math.random() * s.jitterMs : 0);
    if (s.rateLimitPerSecond > 0) {
      if (now - this.windowStart >= 1000) {
        this.windowStart = now;
        this.windowCount = 0;
      }
      this.windowCount++;
      if (this.windowCount > s.rateLimitPerSecond) {
        const retryAfter = Math.max(1, Math.ceil((this.windowStart + 1000 - now) / 1000));
        return { kind: "error", delayMs, status: 429, retryAfter };
      }
    }
    if (s.errorRate > 0 && Math.random() < s.errorRate) return { kind: "error", delayMs, status: s.errorStatus };
    return { kind: "pass", delayMs };
  }
}

export function registerAdminRoutes(router: Router, stats: RequestStats, faults: Faults): void {
  router.get("/_admin/stats", () => ({ status: 200, body: stats.snapshot() }));
  router.post("/_admin/stats/reset", () => {
    stats.reset();
    return { status: 200, body: stats.snapshot() };
  });
  router.get("/_admin/faults", () => ({ status: 200, body: faults.current }));
  router.put("/_admin/faults", (req) => ({ status: 200, body: faults.set(req.body) }));
  router.delete("/_admin/faults", () => {
    faults.clear();
    return { status: 200, body: faults.current };
  });
}
