import { createHash, createHmac, randomBytes } from "node:crypto";
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
 * registered webhook endpoints whose topics and establishments it matches, the way the production
 * service delivers (docs/decisions.md#webhook-deliveries): a JSON POST of the event object, signed
 * with `Lucca-Timestamp` and `Lucca-Signature`, at most DELIVERY_CONCURRENCY at once per endpoint,
 * retried on a schedule by the receiver's status, each attempt recorded. A 404 or 410 suspends the
 * endpoint at once, too many failed deliveries in a row too. An endpoint registered with
 * `POST /webhook-endpoints` is active once it has echoed the activation GET (`?echo=`), and a
 * suspended one resumes only after echoing it again. The configured endpoints (the demo's, a
 * test's `webhookEndpoints`) receive only test deliveries, so that the demo company stays
 * deterministic.
 */

/** The resources whose changes are events: the employee's own, and the reference data the twin lets the admin routes change. */
export const EVENT_RESOURCES: readonly string[] = [
  "employee",
  "employment",
  "job-position",
  "employee-extension",
  "department",
  "business-establishment",
  "legal-entity",
  "job-qualification",
  "occupation-category",
];

/** The catalogue of topics (docs/interface.md#event): the changes, and the test delivery's. */
export const TOPICS: readonly string[] = [...EVENT_RESOURCES.flatMap((r) => [`${r}.created`, `${r}.updated`, `${r}.deleted`]), "ping"];

export interface OutboxOptions {
  /** delays before the 2nd, 3rd... attempt of a delivery; its length + 1 is the attempts a delivery gets. Default 1, 2, 4, 8 minutes */
  retryDelaysMs?: readonly number[];
  /** failed deliveries in a row after which an endpoint is suspended; default 5 */
  suspendAfter?: number;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [60_000, 120_000, 240_000, 480_000];
/** the production service waits 3 s for a receiver's answer */
export const DELIVERY_TIMEOUT_MS = 3_000;
/** the production service makes at most 3 attempts at a time to one endpoint */
export const DELIVERY_CONCURRENCY = 3;
const MAX_ERROR_BODY = 1024;

/** What a write tells of its change: an employee's, or a reference record's (`resource` and `data`). */
export interface ChangeRecord {
  topic: string;
  employee?: Employee;
  /** a reference record changed: its type and id, and its representation just after the change */
  resource?: { type: string; id: Id };
  data?: Record<string, unknown>;
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
    employeeId: change.employee?.id ?? null,
    ...(change.employee ? { snapshot: { ...change.employee } } : {}),
    ...(change.resource ? { resource: change.resource } : {}),
    ...(change.data ? { data: change.data } : {}),
    previousAttributes: change.previousAttributes ?? null,
    businessEstablishmentId: establishmentId,
  };
  company.events.push(event);
  markCompanyChanged(company);
  outboxes.get(company)?.(event, change.origin);
  return event;
}

/** The secret an endpoint's deliveries are signed with: its own, else one derived from the company's seed and its id (the configured endpoints). */
export function endpointSecret(company: Company, endpoint: WebhookEndpoint): string {
  if (endpoint.secret) return endpoint.secret;
  return createHash("sha256").update(`webhook-secret:${company.seed}:${endpoint.id}`).digest("base64url");
}

/** `Lucca-Timestamp`: the sending moment in UTC, ISO 8601 to the second (`2025-01-01T08:34:23Z`). */
export function deliveryTimestamp(at = new Date()): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `Lucca-Signature`: base64 of HMAC-SHA256 keyed with the secret over `<timestamp>.<raw body>`. */
export function deliverySignature(secret: string, timestamp: string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("base64");
}

/** The two signing headers of one delivery. */
export function signedHeaders(secret: string, body: string, at = new Date()): Record<string, string> {
  const timestamp = deliveryTimestamp(at);
  return { "lucca-timestamp": timestamp, "lucca-signature": deliverySignature(secret, timestamp, body) };
}

/** The caller the outbox writes events as: it sees every establishment (each endpoint filters its own). */
const OUTBOX: Caller = { clientId: "outbox", scopes: new Set(), visibleEstablishmentIds: null };

/** How an answer counts (docs/decisions.md#webhook-deliveries): delivered, tried again later, or the endpoint suspended at once. */
export function deliveryVerdict(status: number | null): "delivered" | "retry" | "suspend" {
  if (status !== null && status >= 200 && status < 300) return "delivered";
  if (status === 404 || status === 410) return "suspend";
  // every other answer, and no answer, is tried again: the reading of the service's table that loses no event
  return "retry";
}

export class Outbox {
  private readonly retryDelaysMs: readonly number[];
  private readonly suspendAfter: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** per endpoint: attempts in flight, and those waiting for one of the DELIVERY_CONCURRENCY places */
  private readonly inFlight = new Map<Id, number>();
  private readonly waiting = new Map<Id, Array<() => void>>();
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
    for (const queue of this.waiting.values()) for (const go of queue) go();
    this.waiting.clear();
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

  /** Runs one attempt within the endpoint's DELIVERY_CONCURRENCY places, waiting for one when all are taken. */
  private async slot<T>(endpointId: Id, run: () => Promise<T>): Promise<T> {
    if ((this.inFlight.get(endpointId) ?? 0) >= DELIVERY_CONCURRENCY) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(endpointId) ?? [];
        queue.push(resolve);
        this.waiting.set(endpointId, queue);
      });
    }
    this.inFlight.set(endpointId, (this.inFlight.get(endpointId) ?? 0) + 1);
    try {
      return await run();
    } finally {
      this.inFlight.set(endpointId, this.inFlight.get(endpointId)! - 1);
      this.waiting.get(endpointId)?.shift()?.();
    }
  }

  private async attempt(delivery: WebhookDelivery, endpoint: WebhookEndpoint, event: DirectoryEvent, origin: string): Promise<void> {
    if (this.closed) return;
    const company = this.current().company;
    const outcome = await this.slot(endpoint.id, async () => {
      if (endpoint.suspended || !company.webhookEndpoints.includes(endpoint)) return null;
      // the body is the event object as `GET /events/{id}` shows it, signed at each attempt
      const body = JSON.stringify(this.serializeEvent(event, this.view(origin)));
      const headers = signedHeaders(endpointSecret(company, endpoint), body);
      return { headers, answer: await post(endpoint.url, body, headers) };
    });
    if (outcome === null) return this.settle(delivery, "failed");
    const { headers, answer } = outcome;
    company.webhookDeliveryAttempts.push({
      id: nextId(company.webhookDeliveryAttempts.map((a) => a.id)),
      webhookDeliveryId: delivery.id,
      isSuccessful: answer.ok,
      responseStatusCode: answer.status,
      errorResponseBody: answer.ok ? "" : answer.errorBody,
      signature: headers["lucca-signature"]!,
      createdAt: new Date().toISOString(),
    });
    delivery.attemptsCount++;
    const verdict = deliveryVerdict(answer.status);
    if (verdict === "delivered") {
      endpoint.failuresInARow = 0;
      return this.settle(delivery, "delivered");
    }
    if (verdict === "suspend") {
      endpoint.suspended = true;
      return this.settle(delivery, "failed");
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
   * `POST /service-api/webhook-endpoints` (scope `webhook-endpoints.readwrite`): `{name, webhookUrl,
   * apiVersion?, topics, businessEstablishments?: [{id}] | null, status?}`, nothing else. Each POST
   * declares a new endpoint, answered 201 with its `secret` (the only time it is shown); with
   * `status` `active` (the default) it is sent the activation GET at once and is `active` once it
   * has echoed it, else `inactive`. `DELETE /service-api/webhook-endpoints/{id}` removes one.
   */
  register(router: Router, serializeEndpoint: (endpoint: WebhookEndpoint, view: View) => Record<string, unknown>): void {
    router.post("/service-api/webhook-endpoints", async (req) => {
      const ctx = this.current();
      authenticate(req, ctx, "webhook-endpoints", "write");
      const input = parseEndpoint(req.body, ctx);
      const company = ctx.company;
      const endpoint: WebhookEndpoint = {
        id: nextId(company.webhookEndpoints.map((e) => e.id)),
        url: input.url,
        isActive: false,
        createdAt: new Date().toISOString(),
        name: input.name,
        topics: input.topics,
        establishmentIds: input.establishmentIds,
        secret: randomBytes(32).toString("base64url"),
        suspended: false,
        failuresInARow: 0,
      };
      company.webhookEndpoints.push(endpoint);
      markCompanyChanged(company);
      if (input.activate) endpoint.isActive = await activationEchoed(endpoint.url);
      markCompanyChanged(company);
      return { status: 201, body: { ...serializeEndpoint(endpoint, this.view(req.origin)), secret: endpoint.secret } };
    });
    router.delete("/service-api/webhook-endpoints/{id}", async (req) => {
      const ctx = this.current();
      authenticate(req, ctx, "webhook-endpoints", "write");
      const company = ctx.company;
      const at = company.webhookEndpoints.findIndex((e) => e.id === req.params.id && e.topics !== undefined);
      if (at < 0) throw new HttpError(404, problemBody(404, "Not Found", `no webhook endpoint with id "${req.params.id}"`));
      company.webhookEndpoints.splice(at, 1);
      markCompanyChanged(company);
      return { status: 204 };
    });
  }

  /**
   * The service's own "activate" (its interface's, here an admin route): the activation GET sent
   * again; an endpoint that echoes it is active and, when it was suspended, resumes. Answers whether it passed.
   */
  async reactivate(endpointId: Id): Promise<boolean | null> {
    const company = this.current().company;
    const endpoint = company.webhookEndpoints.find((e) => e.id === endpointId);
    if (!endpoint) return null;
    const passed = await activationEchoed(endpoint.url);
    if (passed) Object.assign(endpoint, { isActive: true, suspended: false, failuresInARow: 0 });
    markCompanyChanged(company);
    return passed;
  }
}

/**
 * The activation: `GET <webhookUrl>?echo=<value>`; passed when the answer is a 200 whose body is
 * the value (text/plain), within the delivery timeout. Redirects are not followed.
 */
export async function activationEchoed(webhookUrl: string): Promise<boolean> {
  const value = randomBytes(18).toString("base64url");
  const url = new URL(webhookUrl);
  url.searchParams.set("echo", value);
  try {
    const response = await fetch(url, { redirect: "manual", headers: { "user-agent": USER_AGENT }, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    const text = await response.text();
    return response.status === 200 && text.trim() === value;
  } catch {
    return false;
  }
}

/** Whether a registered endpoint receives an event: active, not suspended, its topic and establishment. */
function receives(endpoint: WebhookEndpoint, event: DirectoryEvent): boolean {
  if (!endpoint.isActive || endpoint.suspended || !endpoint.topics || endpoint.topics.length === 0) return false;
  if (!endpoint.topics.includes(event.topic)) return false;
  const within = endpoint.establishmentIds;
  // a reference record's event belongs to no establishment but its own: every endpoint that asks for its topic hears it
  if (event.employeeId === null && event.resource) return !within || within.length === 0 || event.businessEstablishmentId == null || within.includes(event.businessEstablishmentId);
  return !within || within.length === 0 || (event.businessEstablishmentId != null && within.includes(event.businessEstablishmentId));
}

/** How long the service keeps an event, delivered or not: 2 months (then it is gone from `GET /events` and `GET /events/{id}`). */
export const EVENT_RETENTION_MONTHS = 2;

/**
 * Whether an event is still kept: it occurred at most EVENT_RETENTION_MONTHS before now, "now"
 * being the company's today when that is earlier than the clock (a demo company of another day
 * keeps the events of its own last 2 months).
 */
export function retained(event: DirectoryEvent, ctx: CurrentContext): boolean {
  const endOfToday = Date.parse(`${ctx.company.today}T23:59:59.999Z`);
  const cutoff = new Date(Math.min(Date.now(), Number.isFinite(endOfToday) ? endOfToday : Date.now()));
  cutoff.setUTCMonth(cutoff.getUTCMonth() - EVENT_RETENTION_MONTHS);
  return Date.parse(event.occurredAt) >= cutoff.getTime();
}

/**
 * An event of `GET /events` in the CloudEvents batch format, with the members the production
 * service's document gives it and no other: `specversion`, `id`, `type` (the topic behind the
 * service's reverse-DNS prefix), `source` (the collection the changed resource belongs to), `time`,
 * and the delivery members (first and latest attempt, attempts, the endpoint) when it was delivered.
 */
export function toCloudEvent(event: DirectoryEvent, view: View): Record<string, unknown> {
  const type = event.resource?.type ?? (event.employeeId === null ? null : "employee");
  const collection = type === null ? null : (view.ctx.service.resources.get(type)?.collection ?? `${type}s`);
  const deliveries = view.ctx.company.webhookDeliveries.filter((d) => d.eventId === event.id);
  const ids = new Set(deliveries.map((d) => d.id));
  const attempts = view.ctx.company.webhookDeliveryAttempts.filter((a) => ids.has(a.webhookDeliveryId)).map((a) => a.createdAt).sort();
  const endpoint = deliveries.length === 0 ? undefined : view.ctx.company.webhookEndpoints.find((e) => e.id === deliveries[0]!.webhookEndpointId);
  return {
    specversion: CLOUDEVENTS_SPECVERSION,
    id: event.id,
    type: `com.luccasoftware.${event.topic}`,
    source: collection === null ? `${view.origin}/service-api` : `${view.origin}/service-api/${collection}`,
    time: event.occurredAt,
    ...(attempts.length > 0
      ? {
          comluccasoftwarefirstdeliverytime: attempts[0],
          comluccasoftwarelatestdeliverytime: attempts.at(-1),
          comluccasoftwaredeliveriescount: attempts.length,
        }
      : {}),
    ...(endpoint ? { comluccasoftwarewebhookendpointwebhookendpointid: endpoint.id, comluccasoftwarewebhookendpointurl: endpoint.url } : {}),
  };
}

/** the version production's document names for its CloudEvents */
const CLOUDEVENTS_SPECVERSION = "1.0.3";

const USER_AGENT = "directory-webhooks/1.0";

interface Outcome {
  ok: boolean;
  status: number | null;
  errorBody: string;
}

/** One POST of a delivery, JSON; ok on a 2xx. Redirects are not followed: they are not a delivery. */
export async function post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": USER_AGENT },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const ok = response.status >= 200 && response.status < 300;
    const text = await response.text().catch(() => "");
    return { ok, status: response.status, errorBody: ok ? "" : text.slice(0, MAX_ERROR_BODY) };
  } catch {
    // refused connection, DNS failure, timeout: an unsuccessful attempt with no answer
    return { ok: false, status: null, errorBody: "" };
  }
}

interface EndpointInput {
  name: string;
  url: string;
  topics: string[];
  establishmentIds: Id[];
  activate: boolean;
}

const ENDPOINT_FIELDS = ["name", "webhookUrl", "apiVersion", "topics", "businessEstablishments", "status"];

/** Loopback receivers may be plain `http://` (a test's, the facade's under `npm start`); every other one is `https://`. */
function loopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function parseEndpoint(body: unknown, ctx: CurrentContext): EndpointInput {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, problemBody(400, "Bad Request", "the body must be a JSON object", { body: ["must be a JSON object"] }));
  }
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!ENDPOINT_FIELDS.includes(key)) fail(key, `unknown property; allowed: ${ENDPOINT_FIELDS.join(", ")}`);
  const name = typeof b.name === "string" && b.name.length >= 1 && b.name.length <= 255 ? b.name : (fail("name", "required; 1 to 255 characters"), "");
  let url = "";
  try {
    const parsed = new URL(String(b.webhookUrl));
    if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopbackHost(parsed.hostname))) fail("webhookUrl", "must be an https URL (http only for a loopback receiver)");
    url = parsed.toString();
  } catch {
    fail("webhookUrl", "required; an absolute https URL");
  }
  if (b.apiVersion !== undefined && b.apiVersion !== API_VERSION) fail("apiVersion", `the only version is ${API_VERSION}`);
  const topics = Array.isArray(b.topics) ? (b.topics as unknown[]) : (fail("topics", "required; a list of topics"), []);
  if (Array.isArray(b.topics) && topics.length === 0) fail("topics", "at least one topic");
  for (const t of topics) {
    if (typeof t !== "string" || !TOPICS.includes(t)) fail("topics", `unknown topic ${JSON.stringify(t)}; allowed: ${TOPICS.join(", ")}`);
  }
  const establishmentIds: Id[] = [];
  if (b.businessEstablishments !== undefined && b.businessEstablishments !== null) {
    if (!Array.isArray(b.businessEstablishments) || b.businessEstablishments.length === 0) fail("businessEstablishments", "null (all) or a non-empty list of {id}");
    else
      for (const e of b.businessEstablishments as unknown[]) {
        const id = (e as { id?: unknown } | null)?.id;
        if (typeof id !== "string" || !ctx.lookup.businessEstablishments.has(id)) fail("businessEstablishments", `no business establishment ${JSON.stringify(id)}`);
        else establishmentIds.push(id);
      }
  }
  if (b.status !== undefined && b.status !== "active" && b.status !== "inactive") fail("status", "active or inactive");
  if (Object.keys(errors).length > 0) throw new HttpError(400, problemBody(400, "Bad Request", "invalid webhook endpoint", errors));
  return { name, url, topics: [...new Set(topics as string[])], establishmentIds, activate: b.status !== "inactive" };
}

/** For the test delivery: the sample's headers, signed like every delivery. */
export function testDeliveryHeaders(company: Company, endpoint: WebhookEndpoint, body: string): Record<string, string> {
  return signedHeaders(endpointSecret(company, endpoint), body);
}
