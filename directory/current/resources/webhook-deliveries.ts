import type { Company, WebhookDelivery, WebhookEndpoint } from "../../data/model.js";
import { markCompanyChanged } from "../derived.js";
import { DELIVERY_TIMEOUT_MS, nextId, testDeliveryHeaders } from "../outbox.js";
import { idList } from "../filters.js";
import type { ResourceDef } from "../resource.js";
import { groupBy } from "./common.js";
import { perContext } from "../cache.js";
import { byId } from "../../data/records.js";
import { HttpError, type DirectoryRequest, type DirectoryResponse, type Router } from "../../http/router.js";
import { problemBody } from "../../http/errors.js";
import { authenticate } from "../auth.js";
import { collectionHref, link, ref, resourceUrl } from "../refs.js";
import { badRequest, includeParam, parseInclude, type ContextSource } from "../engine.js";
import { BadParameter, type CurrentContext, type IncludeOption, type View } from "../resource.js";

/**
 * `POST /service-api/webhook-deliveries`: a test delivery of a sample `employee.created` event to
 * one of the configured webhook endpoints, made at once and answered with its outcome.
 *
 * Test deliveries to one endpoint form one retry sequence: a delivery that follows an undelivered
 * one counts as the next attempt (`attemptsCount` = attempts since the endpoint last succeeded or
 * failed for good), and the 5th unsuccessful attempt in a row is `failed`. The sequence starts over
 * after `delivered` or `failed`. No attempt is made later in the background: `nextAttemptAt` is when
 * the next attempt would be due, and the next trigger is that attempt.
 *
 * Each test delivery records its event (`GET /events/{id}`) and its attempt
 * (`GET /webhook-delivery-attempts`); deliveries are read with `GET /webhook-deliveries[/{id}]`.
 */

export const EVENT_TYPE = "employee.created";
export const MAX_ATTEMPTS = 5;
/** 1, 2, 4, 8 minutes after the 1st, 2nd, 3rd, 4th unsuccessful attempt */
const FIRST_RETRY_DELAY_MS = 60_000;

export function registerWebhookDeliveries(router: Router, current: ContextSource): void {
  router.post("/service-api/webhook-deliveries", (req) => triggerTestDelivery(req, current()));
}

async function triggerTestDelivery(req: DirectoryRequest, ctx: CurrentContext): Promise<DirectoryResponse> {
  const caller = authenticate(req, ctx, "webhook-deliveries", "write");
  const include = includeOf(req);
  const endpointId = parseTarget(req);
  const company = ctx.company;

  const endpoint = company.webhookEndpoints.find((e) => e.id === endpointId);
  if (!endpoint) {
    throw new HttpError(404, problemBody(404, "Not Found", `no webhook endpoint with id "${endpointId}"`));
  }
  if (!endpoint.isActive) {
    throw new HttpError(
      400,
      problemBody(400, "Bad Request", "the webhook endpoint is inactive", {
        "webhookEndpoint.id": [`webhook endpoint "${endpoint.id}" is inactive; activate it before triggering a delivery`],
      }),
    );
  }

  const view: View = { origin: req.origin, include, caller, ctx };
  const deliveryId = nextId(company.webhookDeliveries.map((d) => d.id));
  const eventId = nextId(company.events.map((e) => e.id));
  const sample = company.employees[0];
  company.events.push({
    id: eventId,
    topic: EVENT_TYPE,
    occurredAt: new Date().toISOString(),
    employeeId: sample?.id ?? "1",
  });
  // reserve the id before awaiting, so that concurrent triggers never share one
  const placeholder: WebhookDelivery = {
    id: deliveryId,
    webhookEndpointId: endpoint.id,
    eventId,
    eventType: EVENT_TYPE,
    status: "undelivered",
    attemptsCount: 0,
    nextAttemptAt: null,
  };
  company.webhookDeliveries.push(placeholder);

  markCompanyChanged(company);

  const previous = previousDelivery(company, endpoint, placeholder);
  const payload = JSON.stringify(sampleEvent(view, eventId));
  const headers = testDeliveryHeaders(company, endpoint, payload);
  const outcome = await attempt(endpoint, payload, headers);
  const delivered = outcome.ok;
  company.webhookDeliveryAttempts.push({
    id: nextId(company.webhookDeliveryAttempts.map((a) => a.id)),
    webhookDeliveryId: deliveryId,
    isSuccessful: outcome.ok,
    responseStatusCode: outcome.status,
    errorResponseBody: outcome.ok ? "" : outcome.errorBody,
    signature: headers["lucca-signature"]!,
    createdAt: new Date().toISOString(),
  });

  const attemptsCount = previous?.status === "undelivered" ? previous.attemptsCount + 1 : 1;
  placeholder.attemptsCount = attemptsCount;
  placeholder.status = delivered ? "delivered" : attemptsCount >= MAX_ATTEMPTS ? "failed" : "undelivered";
  placeholder.nextAttemptAt =
    placeholder.status === "undelivered" ? new Date(Date.now() + FIRST_RETRY_DELAY_MS * 2 ** (attemptsCount - 1)).toISOString() : null;
  markCompanyChanged(company);

  return { status: 202, body: serializeWebhookDelivery(placeholder, view) };
}

export function serializeWebhookDelivery(d: WebhookDelivery, view: View): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: d.id,
    type: "webhook-delivery",
    url: resourceUrl(view, "webhook-deliveries", d.id),
    nextAttemptAt: d.nextAttemptAt,
    attemptsCount: d.attemptsCount,
    status: d.status,
    event: { id: d.eventId, type: d.eventType, url: resourceUrl(view, "events", d.eventId) },
    webhookEndpoint: ref(view, "webhook-endpoint", "webhook-endpoints", d.webhookEndpointId),
  };
  if (view.include.has("links")) {
    body.links = { attempts: link(view, collectionHref(view, "webhook-delivery-attempts", { "webhookDelivery.id": d.id })) };
  }
  return body;
}

const deliveriesById = perContext((ctx) => byId(ctx.company.webhookDeliveries));
const byEndpoint = perContext((ctx) => groupBy(ctx.company.webhookDeliveries, (d) => d.webhookEndpointId));

export const webhookDeliveries: ResourceDef<WebhookDelivery> = {
  collection: "webhook-deliveries",
  type: "webhook-delivery",
  scope: "webhook-deliveries",
  records: (ctx) => ctx.company.webhookDeliveries,
  byId: (id, ctx) => deliveriesById(ctx).get(id),
  serialize: serializeWebhookDelivery,
  filters: {
    "webhookEndpoint.id": idList((d) => d.webhookEndpointId, { index: byEndpoint }),
  },
  // by id only; kept as it was when sort became per list (the webhook lists are left as they are)
  sorts: {},
};

/** The event a test delivery sends: a sample creation of the company's first employee. */
function sampleEvent(view: View, eventId: string): Record<string, unknown> {
  const employee = view.ctx.company.employees[0];
  return {
    id: eventId,
    type: EVENT_TYPE,
    url: resourceUrl(view, "events", eventId),
    occurredAt: new Date().toISOString(),
    isTest: true,
    resource: ref(view, "employee", "employees", employee?.id),
  };
}

interface Outcome {
  ok: boolean;
  /** null: no answer */
  status: number | null;
  /** the start of the receiver's answer to an unsuccessful attempt */
  errorBody: string;
}

const MAX_ERROR_BODY = 1024;

/** One POST of the event; ok on a 2xx. Redirects are not followed: they are not a delivery. */
async function attempt(endpoint: WebhookEndpoint, payload: string, signed: Record<string, string>): Promise<Outcome> {
  try {
    const response = await fetch(endpoint.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "directory-webhooks/1.0",
        ...signed,
      },
      body: payload,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const ok = response.status >= 200 && response.status < 300;
    let errorBody = "";
    if (!ok) errorBody = (await response.text().catch(() => "")).slice(0, MAX_ERROR_BODY);
    // free the connection; a successful answer carries nothing we keep
    else await response.body?.cancel().catch(() => undefined);
    return { ok, status: response.status, errorBody };
  } catch {
    // refused connection, DNS failure, timeout, invalid URL: an unsuccessful attempt like a 5xx
    return { ok: false, status: null, errorBody: "" };
  }
}

function previousDelivery(company: Company, endpoint: WebhookEndpoint, current: WebhookDelivery): WebhookDelivery | undefined {
  const list = company.webhookDeliveries;
  for (let i = list.indexOf(current) - 1; i >= 0; i--) {
    // a delivery still in flight (no attempt counted yet) is not part of the sequence so far
    if (list[i]!.webhookEndpointId === endpoint.id && list[i]!.attemptsCount > 0) return list[i];
  }
  return undefined;
}

/**
 * The endpoint of a test delivery: the JSON body of docs/interface.md, or, as the production service's
 * document has it, the query `?webhookEndpoint.id=` with no body. Both at once must agree.
 */
function parseTarget(req: DirectoryRequest): string {
  const bad = (param: string, message: string): never => {
    throw new HttpError(400, problemBody(400, "Bad Request", "invalid test delivery request", { [param]: [message] }));
  };
  for (const name of new Set(req.query.keys())) {
    if (name !== "include" && name !== "webhookEndpoint.id" && name !== "event.topic") {
      bad(name, "unknown parameter; allowed: include, webhookEndpoint.id, event.topic");
    }
  }
  // the production service's only topic for a test delivery; the event sent is still the sample
  // employee.created of docs/interface.md
  const topics = req.query.getAll("event.topic");
  if (topics.length > 1 || (topics.length === 1 && topics[0] !== "ping")) bad("event.topic", 'the only topic is "ping"');
  const fromQuery = req.query.getAll("webhookEndpoint.id");
  if (fromQuery.length > 1) bad("webhookEndpoint.id", "given more than once");
  if (fromQuery.length === 0) return parseBody(req.body);
  const id = fromQuery[0]!;
  if (id.length === 0) bad("webhookEndpoint.id", "must not be empty");
  if (req.body !== undefined && parseBody(req.body) !== id) bad("webhookEndpoint.id", "the query and the body name different endpoints");
  return id;
}

function parseBody(body: unknown): string {
  const fail = (message: string): never => {
    throw new HttpError(400, problemBody(400, "Bad Request", "invalid test delivery request", { "webhookEndpoint.id": [message] }));
  };
  if (body === undefined) fail("required: send {\"webhookEndpoint\": {\"id\": \"...\"}}");
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, problemBody(400, "Bad Request", "the body must be a JSON object", { body: ["must be a JSON object"] }));
  }
  const endpoint = (body as Record<string, unknown>).webhookEndpoint;
  if (endpoint === undefined || endpoint === null) fail("required");
  if (typeof endpoint !== "object" || Array.isArray(endpoint)) fail("webhookEndpoint must be an object {id}");
  const id = (endpoint as Record<string, unknown>).id;
  if (typeof id !== "string") fail("required; a string");
  if ((id as string).length === 0) fail("must not be empty");
  return id as string;
}

function includeOf(req: DirectoryRequest): ReadonlySet<IncludeOption> {
  try {
    return parseInclude(includeParam(req.query));
  } catch (err) {
    if (err instanceof BadParameter) throw badRequest({ [err.param]: [err.message] });
    throw err;
  }
}
