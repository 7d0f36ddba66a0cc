import { createHash, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Company, DirectoryEvent, Employee, Id, WebhookDelivery, WebhookEndpoint } from "../data/model.js";
import { problemBody } from "../http/errors.js";
import { HttpError, type Router } from "../http/router.js";
import { API_VERSION, authenticate } from "./auth.js";
import { markCompanyChanged } from "./derived.js";
import type { ContextSource } from "./engine.js";
import type { Caller } from "./tokens.js";
import type { CurrentContext, View } from "./resource.js";

/**
 * The directory's outbox (docs/directory.md#events-and-webhooks): every change it applies records
 * one event (`recordEvent`), listed at `GET /events`, and each event is delivered to the
 * registered webhook endpoints whose topics and establishments it matches, as a structured-mode
 * CloudEvent signed the Standard Webhooks way (docs/decisions.md#webhook-deliveries), retried on
 * a schedule, each attempt recorded; an endpoint is suspended after too many failed deliveries in
 * a row. An endpoint registered with `POST /webhook-endpoints` must first answer an activation
 * challenge (a `confirmation` event). The configured endpoints (the demo's, a test's
 * `webhookEndpoints`) receive only test deliveries, so that the demo company stays deterministic.
 */

/** The catalogue of topics (docs/interface.md#event): the changes, the challenge and the test delivery's. */
export const TOPICS: readonly string[] = [
  ...["employee", "employment", "job-position", "employee-extension"].flatMap((r) => [`${r}.created`, `${r}.updated`, `${r}.deleted`]),
  "confirmation",
  "ping",
];

export interface OutboxOptions {
  /** delays before the 2nd, 3rd... attempt of a delivery; its length + 1 is the attempts a delivery gets. Default 1, 2, 4, 8 minutes */
  retryDelaysMs?: readonly number[];
  /** failed deliveries in a row after which an endpoint is suspended; default 5 */
  suspendAfter?: number;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [60_000, 120_000, 240_000, 480_000];
const DELIVERY_TIMEOUT_MS = 5_000;
const MAX_ERROR_BODY = 1024;

/** What a write tells of its change. */
export interface ChangeRecord {
  topic: string;
  employee: Employee;
  previousAttributes?: Record<string, unknown> | null;
  /** the base URL the event's addresses are written with (the write's own) */
  origin: string;
}

type Recorded = (event: DirectoryEvent, origin: string) => void;
const outboxes = new WeakMap<Company, Recorded>();

/** Ids are decimal strings like every other id of the company. */
export function nextId(ids: readonly string[]): string {
  let max = 0;
  for (const id of ids) {
    const n = Number(id);
    if (Number.isSafeInteger(n) && n > max) max = n;
  }
  return String(max + 1);
}

/**
 * Records the event of a change the caller has just applied to the company, and hands it to the
 * outbox's deliveries (none when no outbox is registered: a company used without a server).
 */
export function recordEvent(company: Company, change: ChangeRecord, establishmentId: Id | null): DirectoryEvent {
  const event: DirectoryEvent = {
    id: nextId(company.events.map((e) => e.id)),
    topic: change.topic,
    occurredAt: new Date().toISOString(),
    employeeId: change.employee.id,
    snapshot: { ...change.employee },
    previousAttributes: change.previousAttributes ?? null,
    businessEstablishmentId: establishmentId,
  };
  company.events.push(event);
  markCompanyChanged(company);
  outboxes.get(company)?.(event, change.origin);
  return event;
}

/** The Standard Webhooks secret of an endpoint: its own, else one derived from the company's seed and its id. */
export function endpointSecret(company: Company, endpoint: WebhookEndpoint): string {
  if (endpoint.secret) return endpoint.secret;
  return `whsec_${createHash("sha256").update(`webhook-secret:${company.seed}:${endpoint.id}`).digest("base64")}`;
}

/** The three Standard Webhooks headers of one message (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`). */
export function signedHeaders(secret: string, messageId: string, body: string, at = new Date()): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, at, body),
  };
}

/** The caller the outbox writes events as: it sees every establishment (each endpoint filters its own). */
const OUTBOX: Caller = { clientId: "outbox", scopes: new Set(), visibleEstablishmentIds: null };

export class Outbox {
  private readonly retryDelaysMs: readonly number[];
  private readonly suspendAfter: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly current: ContextSource,
    private readonly serializeEvent: (event: DirectoryEvent, view: View) => Record<string, unknown>,
    options: OutboxOptions = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.suspendAfter = options.suspendAfter ?? 5;
    outboxes.set(current().company, (event, origin) => this.dispatch(event, origin));
  }

  /** Stops the retries planned (the server closes). */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** The CloudEvent of an event (structured mode): `data` is the event as `GET /events/{id}` shows it. */
  cloudEvent(event: DirectoryEvent, view: View): Record<string, unknown> {
    return toCloudEvent(this.serializeEvent(event, view), event, view.origin);
  }

  private dispatch(event: DirectoryEvent, origin: string): void {
    const company = this.current().company;
    for (const endpoint of company.webhookEndpoints) {
      if (!receives(endpoint, event)) continue;
      const delivery: WebhookDelivery = {
        id: nextId(company.webhookDeliveries.map((d) => d.id)),
        webhookEndpointId: endpoint.id,
        eventId: event.id,
        eventType: event.topic,
        status: "undelivered",
        attemptsCount: 0,
        nextAttemptAt: new Date().toISOString(),
      };
      company.webhookDeliveries.push(delivery);
      markCompanyChanged(company);
      // the write answers first: its delivery is the outbox's own work
      this.later(0, () => this.attempt(delivery, endpoint, event, origin));
    }
  }

  private later(ms: number, run: () => Promise<unknown>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(delivery: WebhookDelivery, endpoint: WebhookEndpoint, event: DirectoryEvent, origin: string): Promise<void> {
    if (this.closed) return;
    const company = this.current().company;
    if (endpoint.suspended) return this.settle(delivery, "failed");
    const body = JSON.stringify(this.cloudEvent(event, this.view(origin)));
    // one message id per delivery: its retries are the same message (the receiver deduplicates on it)
    const headers = signedHeaders(endpointSecret(company, endpoint), `msg_${event.id}_${endpoint.id}`, body);
    const outcome = await post(endpoint.url, body, headers);
    company.webhookDeliveryAttempts.push({
      id: nextId(company.webhookDeliveryAttempts.map((a) => a.id)),
      webhookDeliveryId: delivery.id,
      isSuccessful: outcome.ok,
      responseStatusCode: outcome.status,
      errorResponseBody: outcome.ok ? "" : outcome.errorBody,
      signature: headers["webhook-signature"]!,
      createdAt: new Date().toISOString(),
    });
    delivery.attemptsCount++;
    if (outcome.ok) {
      endpoint.failuresInARow = 0;
      return this.settle(delivery, "delivered");
    }
    const delay = this.retryDelaysMs[delivery.attemptsCount - 1];
    if (delay === undefined) {
      endpoint.failuresInARow = (endpoint.failuresInARow ?? 0) + 1;
      if (endpoint.failuresInARow >= this.suspendAfter) endpoint.suspended = true;
      return this.settle(delivery, "failed");
    }
    delivery.nextAttemptAt = new Date(Date.now() + delay).toISOString();
    markCompanyChanged(company);
    this.later(delay, () => this.attempt(delivery, endpoint, event, origin));
  }

  private settle(delivery: WebhookDelivery, status: "delivered" | "failed"): void {
    delivery.status = status;
    delivery.nextAttemptAt = null;
    markCompanyChanged(this.current().company);
  }

  private view(origin: string): View {
    return { origin, include: new Set(), caller: OUTBOX, ctx: this.current() };
  }

  /**
   * `POST /service-api/webhook-endpoints` (scope `webhook-endpoints.readwrite`): `{name, url,
   * topics, businessEstablishments?: [{id}], secret?}`. The endpoint is sent a `confirmation`
   * event whose `data.challenge` it must echo (`{"challenge": "…"}`, 2xx) to become `active`;
   * otherwise it is registered `inactive` and the same POST may be sent again. Answers 201 with
   * the endpoint and, once, its `secret`.
   */
  register(router: Router, serializeEndpoint: (endpoint: WebhookEndpoint, view: View) => Record<string, unknown>): void {
    router.post("/service-api/webhook-endpoints", async (req) => {
      const ctx = this.current();
      authenticate(req, ctx, "webhook-endpoints", "write");
      const input = parseEndpoint(req.body, ctx);
      const company = ctx.company;
      const existing = company.webhookEndpoints.find((e) => e.url === input.url && e.topics !== undefined);
      const endpoint: WebhookEndpoint = existing ?? {
        id: nextId(company.webhookEndpoints.map((e) => e.id)),
        url: input.url,
        isActive: false,
        createdAt: new Date().toISOString(),
      };
      Object.assign(endpoint, {
        name: input.name,
        topics: input.topics,
        establishmentIds: input.establishmentIds,
        secret: input.secret ?? endpoint.secret ?? `whsec_${randomBytes(32).toString("base64")}`,
        suspended: false,
        failuresInARow: 0,
      });
      if (!existing) company.webhookEndpoints.push(endpoint);
      endpoint.isActive = await this.challenge(endpoint, req.origin);
      markCompanyChanged(company);
      const view = this.view(req.origin);
      return { status: existing ? 200 : 201, body: { ...serializeEndpoint(endpoint, view), secret: endpoint.secret } };
    });
  }

  /** The activation challenge: a `confirmation` event recorded and sent once; true when echoed. */
  private async challenge(endpoint: WebhookEndpoint, origin: string): Promise<boolean> {
    const company = this.current().company;
    const challenge = randomBytes(18).toString("base64url");
    const event: DirectoryEvent = {
      id: nextId(company.events.map((e) => e.id)),
      topic: "confirmation",
      occurredAt: new Date().toISOString(),
      employeeId: null,
      // the endpoint being confirmed, with the challenge it must echo
      data: { id: endpoint.id, type: "webhook-endpoint", url: `${origin}/service-api/webhook-endpoints/${endpoint.id}`, challenge },
      previousAttributes: null,
      businessEstablishmentId: null,
    };
    company.events.push(event);
    markCompanyChanged(company);
    const body = JSON.stringify(this.cloudEvent(event, this.view(origin)));
    const outcome = await post(endpoint.url, body, signedHeaders(endpointSecret(company, endpoint), `msg_${event.id}_${endpoint.id}`, body), true);
    return outcome.ok && outcome.answer === challenge;
  }
}

/** Whether a registered endpoint receives an event: active, not suspended, its topic and establishment. */
function receives(endpoint: WebhookEndpoint, event: DirectoryEvent): boolean {
  if (!endpoint.isActive || endpoint.suspended || !endpoint.topics || endpoint.topics.length === 0) return false;
  if (event.topic === "confirmation" || !endpoint.topics.includes(event.topic)) return false;
  const within = endpoint.establishmentIds;
  return !within || within.length === 0 || (event.businessEstablishmentId != null && within.includes(event.businessEstablishmentId));
}

/** An event of `GET /events` as a CloudEvent 1.0 (the batch format of `GET /events`, and each webhook delivery). */
export function toCloudEvent(serialized: Record<string, unknown>, event: DirectoryEvent, origin: string): Record<string, unknown> {
  return {
    specversion: "1.0",
    id: event.id,
    source: `${origin}/service-api`,
    type: event.topic,
    time: event.occurredAt,
    subject: event.employeeId === null ? undefined : `employees/${event.employeeId}`,
    datacontenttype: "application/json",
    dataschema: undefined,
    apiversion: API_VERSION,
    data: serialized,
  };
}

interface Outcome {
  ok: boolean;
  status: number | null;
  errorBody: string;
  /** the `challenge` of the answer, when asked for */
  answer?: string;
}

/** One POST; ok on a 2xx. Redirects are not followed: they are not a delivery. */
async function post(url: string, body: string, headers: Record<string, string>, readChallenge = false): Promise<Outcome> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/cloudevents+json; charset=utf-8", "user-agent": "directory-webhooks/1.0" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const ok = response.status >= 200 && response.status < 300;
    const text = await response.text().catch(() => "");
    let answer: string | undefined;
    if (ok && readChallenge) {
      try {
        const parsed = JSON.parse(text) as { challenge?: unknown };
        if (typeof parsed?.challenge === "string") answer = parsed.challenge;
      } catch {
        // no JSON: no answer to the challenge
      }
    }
    return { ok, status: response.status, errorBody: ok ? "" : text.slice(0, MAX_ERROR_BODY), answer };
  } catch {
    return { ok: false, status: null, errorBody: "" };
  }
}

interface EndpointInput {
  name: string;
  url: string;
  topics: string[];
  establishmentIds: Id[];
  secret: string | undefined;
}

function parseEndpoint(body: unknown, ctx: CurrentContext): EndpointInput {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, problemBody(400, "Bad Request", "the body must be a JSON object", { body: ["must be a JSON object"] }));
  }
  const b = body as Record<string, unknown>;
  const known = new Set(["name", "url", "topics", "businessEstablishments", "secret"]);
  for (const key of Object.keys(b)) if (!known.has(key)) fail(key, "unknown field; allowed: name, url, topics, businessEstablishments, secret");
  const name = typeof b.name === "string" && b.name.length >= 1 && b.name.length <= 255 ? b.name : (fail("name", "required; 1 to 255 characters"), "");
  let url = "";
  try {
    const parsed = new URL(String(b.url));
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") fail("url", "must be an http or https URL");
    url = parsed.toString();
  } catch {
    fail("url", "required; an absolute http or https URL");
  }
  const topics = Array.isArray(b.topics) ? (b.topics as unknown[]) : (fail("topics", "required; a list of topics"), []);
  if (Array.isArray(b.topics) && topics.length === 0) fail("topics", "at least one topic");
  for (const t of topics) {
    if (typeof t !== "string" || !TOPICS.includes(t) || t === "confirmation") fail("topics", `unknown topic ${JSON.stringify(t)}; allowed: ${TOPICS.filter((x) => x !== "confirmation").join(", ")}`);
  }
  const establishmentIds: Id[] = [];
  if (b.businessEstablishments !== undefined) {
    if (!Array.isArray(b.businessEstablishments)) fail("businessEstablishments", "a list of {id}");
    else
      for (const e of b.businessEstablishments as unknown[]) {
        const id = (e as { id?: unknown } | null)?.id;
        if (typeof id !== "string" || !ctx.lookup.businessEstablishments.has(id)) fail("businessEstablishments", `no business establishment ${JSON.stringify(id)}`);
        else establishmentIds.push(id);
      }
  }
  let secret: string | undefined;
  if (b.secret !== undefined) {
    const raw = typeof b.secret === "string" && b.secret.startsWith("whsec_") ? Buffer.from(b.secret.slice(6), "base64") : Buffer.alloc(0);
    if (raw.length < 24 || raw.length > 64) fail("secret", "whsec_ and 24 to 64 bytes in base64");
    else secret = b.secret as string;
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, problemBody(400, "Bad Request", "invalid webhook endpoint", errors));
  return { name, url, topics: [...new Set(topics as string[])], establishmentIds, secret };
}

/** For the test delivery: the sample's headers, signed like every delivery. */
export function testDeliveryHeaders(company: Company, endpoint: WebhookEndpoint, deliveryId: string, body: string): Record<string, string> {
  return signedHeaders(endpointSecret(company, endpoint), `msg_test_${deliveryId}`, body);
}
