import type { DirectoryEvent, WebhookDeliveryAttempt, WebhookEndpoint } from "../../data/model.js";
import { byId } from "../../data/records.js";
import { API_VERSION } from "../auth.js";
import { perContext } from "../cache.js";
import { employeeVisible } from "../derived.js";
import { embedById } from "../engine.js";
import { enumList, idList, stringList } from "../filters.js";
import { collectionHref, link, ref } from "../refs.js";
import type { CurrentContext, ResourceDef, View } from "../resource.js";
import type { DirectoryRequest, DirectoryResponse } from "../../http/router.js";
import { retained, toCloudEvent } from "../outbox.js";
import { groupBy, self, withLinks } from "./common.js";
import { serializeEmployee } from "./employees.js";

/**
 * The reads the test deliveries point to: webhook endpoints, events and delivery attempts
 * (deliveries themselves are in webhook-deliveries.ts).
 */

const endpointsById = perContext((ctx) => byId(ctx.company.webhookEndpoints));

export function serializeWebhookEndpoint(r: WebhookEndpoint, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "webhook-endpoint", "webhook-endpoints", r.id),
      name: r.name ?? `Endpoint ${r.id}`,
      apiVersion: API_VERSION,
      webhookUrl: r.url,
      topics: r.topics ?? [],
      status: r.suspended ? "suspended" : r.isActive ? "active" : "inactive",
      createdAt: r.createdAt ?? null,
      lastUpdatedAt: r.createdAt ?? null,
    },
    () => ({}),
  );
}

export const webhookEndpoints: ResourceDef<WebhookEndpoint> = {
  collection: "webhook-endpoints",
  type: "webhook-endpoint",
  scope: "webhook-endpoints",
  records: (ctx) => ctx.company.webhookEndpoints,
  byId: (id, ctx) => endpointsById(ctx).get(id),
  serialize: serializeWebhookEndpoint,
  filters: {
    status: enumList(["active", "suspended", "inactive"], (r) => (r.suspended ? "suspended" : r.isActive ? "active" : "inactive")),
    // the configured endpoints belong to no authorised application: no id selects any of them
    "application.id": stringList(() => null),
  },
  // by id only; kept as it was when sort became per list (the webhook lists are left as they are)
  sorts: {},
};

/**
 * The delivery status of an event, from its deliveries: `delivered` once one succeeded, else
 * `scheduled` while one will be attempted again, else `failed`; none for an event never delivered.
 */
const eventStatus = perContext((ctx) => {
  const status = new Map<string, "scheduled" | "delivered" | "failed">();
  for (const d of ctx.company.webhookDeliveries) {
    const now = status.get(d.eventId);
    const next = d.status === "delivered" ? "delivered" : d.status === "undelivered" ? "scheduled" : "failed";
    if (now === "delivered" || (now === "scheduled" && next === "failed")) continue;
    status.set(d.eventId, next);
  }
  return status;
});

const eventsById = perContext((ctx) => byId(ctx.company.events));

/** The establishment an event concerns: recorded with the change, else (the generated events) the employee's now. */
function establishmentOf(r: DirectoryEvent, ctx: CurrentContext): string | null {
  if (r.businessEstablishmentId !== undefined) return r.businessEstablishmentId;
  return r.employeeId === null ? null : (ctx.derived.employee.get(r.employeeId)?.establishmentId ?? null);
}

/**
 * `data` is the employee right after the change (the generated events: as it reads now),
 * `previousAttributes` the changed attributes as they were, on updates; `businessEstablishment`
 * that of the employee's applicable job position when the change happened. A reference record's
 * event carries that record, as it was just after the change, as its `data`.
 */
export function serializeEvent(r: DirectoryEvent, view: View): Record<string, unknown> {
  const employee = r.snapshot ?? (r.employeeId === null ? undefined : view.ctx.lookup.employees.get(r.employeeId));
  const data = r.data ?? (employee ? serializeEmployee(employee, { ...view, include: new Set() }) : ref(view, "employee", "employees", r.employeeId));
  return withLinks(
    view,
    {
      ...self(view, "event", "events", r.id),
      apiVersion: API_VERSION,
      topic: r.topic,
      occurredAt: r.occurredAt,
      source: view.origin,
      businessEstablishment: ref(view, "business-establishment", "business-establishments", establishmentOf(r, view.ctx)),
      data,
      previousAttributes: r.previousAttributes ?? null,
    },
    () => ({ retry: link(view, collectionHref(view, "webhook-deliveries", {})) }),
  );
}

export const CLOUDEVENTS_BATCH = "application/cloudevents-batch+json";

/** `Accept: application/cloudevents-batch+json`: the page as a JSON array of CloudEvents, its links as a `Link` header (RFC 8288). */
function cloudEventsBatch(req: DirectoryRequest, envelope: Record<string, unknown>, items: readonly DirectoryEvent[], view: View): DirectoryResponse | null {
  const accept = String(req.headers.accept ?? "").toLowerCase();
  if (!accept.includes(CLOUDEVENTS_BATCH)) return null;
  // the envelope's links, asked with include=links as on every list
  const links = (envelope.links ?? {}) as Record<string, { href: string } | null>;
  const link = Object.entries(links)
    .filter(([, l]) => l !== null)
    .map(([rel, l]) => `<${l!.href}>; rel="${rel}"`)
    .join(", ");
  const body = items.map((r) => toCloudEvent(r, view));
  return { status: 200, headers: { "content-type": `${CLOUDEVENTS_BATCH}; charset=utf-8`, ...(link ? { link } : {}) }, body };
}

export const events: ResourceDef<DirectoryEvent> = {
  collection: "events",
  type: "event",
  scope: "events",
  records: (ctx) => ctx.company.events,
  byId: (id, ctx) => eventsById(ctx).get(id),
  // kept EVENT_RETENTION (older ones are gone); an event shows an employee: the caller must be able to see that employee
  // (an event a recorded delivery still names stays readable with it: the demo's deliveries are older)
  visible: (r, caller, ctx) => (retained(r, ctx) || deliveredEvents(ctx).has(r.id)) && (r.employeeId === null || employeeVisible(r.employeeId, caller, ctx)),
  serialize: serializeEvent,
  alternateList: cloudEventsBatch,
  // production's list takes its delivery status and the paging only (docs/decisions.md#events-list): no sorts
  filters: {
    status: enumList(["scheduled", "delivered", "failed"], (r, ctx) => eventStatus(ctx).get(r.id)),
  },
};

const deliveredEvents = perContext((ctx) => new Set(ctx.company.webhookDeliveries.map((d) => d.eventId)));
const attemptsById = perContext((ctx) => byId(ctx.company.webhookDeliveryAttempts));
const attemptsByDelivery = perContext((ctx) => groupBy(ctx.company.webhookDeliveryAttempts, (a) => a.webhookDeliveryId));

export function serializeAttempt(r: WebhookDeliveryAttempt, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "webhook-delivery-attempt", "webhook-delivery-attempts", r.id),
      signature: r.signature,
      webhookDelivery: ref(view, "webhook-delivery", "webhook-deliveries", r.webhookDeliveryId),
      isSuccessful: r.isSuccessful,
      responseStatusCode: r.responseStatusCode,
      errorResponseBody: r.errorResponseBody,
      createdAt: r.createdAt,
    },
    () => ({}),
  );
}

export const webhookDeliveryAttempts: ResourceDef<WebhookDeliveryAttempt> = {
  collection: "webhook-delivery-attempts",
  type: "webhook-delivery-attempt",
  // read with the deliveries' scope
  scope: "webhook-deliveries",
  records: (ctx) => ctx.company.webhookDeliveryAttempts,
  byId: (id, ctx) => attemptsById(ctx).get(id),
  serialize: serializeAttempt,
  embeddables: {
    "webhook-delivery": (r, view) => [embedById(view, "webhook-delivery", r.webhookDeliveryId)],
  },
  filters: {
    "webhookDelivery.id": idList((a) => a.webhookDeliveryId, { index: attemptsByDelivery }),
  },
  // by id only; kept as it was when sort became per list (the webhook lists are left as they are)
  sorts: {},
};
