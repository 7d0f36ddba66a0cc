import type { ServerResponse } from "node:http";
import { problemBody } from "./http/errors.js";
import { HttpError, type Router } from "./http/router.js";
import { SlidingWindow } from "./limits.js";
import type { Outbox } from "./current/outbox.js";
import type { ReferenceChange } from "./current/reference-changes.js";

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
  /**
   * a request limit in place of the configured one (DirectoryOptions.limits): at most this many
   * requests in any sliding window of `rateLimitWindowSeconds`, counted as the limit counts them
   * (not the token endpoint), beyond which the service answers 429 with Retry-After; 0: the
   * configured limit applies
   */
  rateLimitRequests: number;
  /** the window of `rateLimitRequests`, in seconds */
  rateLimitWindowSeconds: number;
  /** share of requests (0..1) that never get an answer */
  hangRate: number;
  /**
   * share (0..1) of the representations of an answer's `embedded` served partial: `id`, `type`
   * and `url` only (the interface allows partial embedded representations)
   */
  partialEmbedRate: number;
  /** share (0..1) of the representations of an answer's `embedded` left out */
  missingEmbedRate: number;
  /**
   * a list answer of more items than this runs over the request duration limit, as a heavy page
   * does in production: 408, its work dropped (0: never)
   */
  overrunItems: number;
}

const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  errorStatus: 503,
  rateLimitRequests: 0,
  rateLimitWindowSeconds: 60,
  hangRate: 0,
  partialEmbedRate: 0,
  missingEmbedRate: 0,
  overrunItems: 0,
};

/** Longest added latency: beyond 2^31 ms a Node timer would fire at once. */
const MAX_LATENCY_MS = 600_000;

const SETTING_RULES: Record<keyof FaultSettings, { valid: (n: number) => boolean; message: string }> = {
  latencyMs: { valid: (n) => n >= 0 && n <= MAX_LATENCY_MS, message: `must be a number of ms from 0 to ${MAX_LATENCY_MS}` },
  jitterMs: { valid: (n) => n >= 0 && n <= MAX_LATENCY_MS, message: `must be a number of ms from 0 to ${MAX_LATENCY_MS}` },
  errorRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  errorStatus: { valid: (n) => Number.isInteger(n) && n >= 400 && n <= 599, message: "must be an HTTP status from 400 to 599" },
  // a share of a request would refuse every request
  rateLimitRequests: { valid: (n) => Number.isInteger(n) && n >= 0, message: "must be a whole number >= 0 (0: the configured limit)" },
  rateLimitWindowSeconds: { valid: (n) => Number.isInteger(n) && n >= 1 && n <= 86_400, message: "must be a whole number of seconds from 1 to 86400" },
  hangRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  partialEmbedRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  missingEmbedRate: { valid: (n) => n >= 0 && n <= 1, message: "must be a number from 0 to 1" },
  overrunItems: { valid: (n) => Number.isInteger(n) && n >= 0, message: "must be a whole number >= 0 (0: never)" },
};

export type FaultDecision =
  | { kind: "pass"; delayMs: number }
  | { kind: "error"; delayMs: number; status: number }
  | { kind: "hang" };

export class Faults {
  private settings: FaultSettings = { ...NO_FAULTS };
  /** the window of `rateLimitRequests` while it is set */
  private window: SlidingWindow | null = null;
  /** requests left hanging so far (a test's evidence that its faults took effect) */
  hung = 0;
  /** the answers of the requests left hanging, until their client gives up or `clear` cuts them */
  private readonly hanging = new Set<ServerResponse>();

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
    this.window = next.rateLimitRequests > 0 ? new SlidingWindow(next.rateLimitRequests, next.rateLimitWindowSeconds) : null;
    return this.current;
  }

  /** Faults off; the requests left hanging are cut, as a frozen service that restarts cuts them. */
  clear(): void {
    this.settings = { ...NO_FAULTS };
    this.window = null;
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  /** Keeps a hung request's answer, so that `clear` can cut it. */
  hold(res: ServerResponse): void {
    this.hanging.add(res);
    res.once("close", () => this.hanging.delete(res));
  }

  /** The request limit the faults set in place of the configured one; null when they set none. */
  get requestLimit(): SlidingWindow | null {
    return this.window;
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

  /** What happens to the next request (the request limit aside: the server applies it). */
  decide(): FaultDecision {
    const s = this.settings;
    if (s.hangRate > 0 && Math.random() < s.hangRate) {
      this.hung++;
      return { kind: "hang" };
    }
    const delayMs = s.latencyMs + (s.jitterMs > 0 ? Math.random() * s.jitterMs : 0);
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

/**
 * What the service's own interface does, for tests and the demo: a change to the reference data
 * (`PATCH /_admin/reference/{collection}/{id}`, answered with the event it recorded), and an
 * endpoint's activation sent again (`POST /_admin/webhook-endpoints/{id}/activate`: a suspended
 * endpoint that echoes it resumes; answered `{passed}`).
 */
export function registerOutsideChanges(router: Router, outbox: Outbox, changeReference: ReferenceChange): void {
  router.add("PATCH", "/_admin/reference/{collection}/{id}", (req) => ({ status: 200, body: changeReference(req.params.collection!, req.params.id!, req.body, req.origin) }));
  router.post("/_admin/webhook-endpoints/{id}/activate", async (req) => {
    const passed = await outbox.reactivate(req.params.id!);
    if (passed === null) throw new HttpError(404, problemBody(404, "Not Found", `no webhook endpoint with id "${req.params.id}"`));
    return { status: 200, body: { passed } };
  });
}
