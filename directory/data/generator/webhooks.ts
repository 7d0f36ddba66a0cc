import { createHash } from "node:crypto";
import { FAMILIES, FAMILY_ORDER } from "../catalog.js";
import type {
  Company,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEndpoint,
  DirectoryEvent,
  Profession,
} from "../model.js";
import { DAY_SECONDS, SALT_WEBHOOKS } from "./state.js";
import { HierarchyPhase } from "./hierarchy.js";

/** A phase of the demo company's generator (generate.ts): the webhook deliveries, their attempts, the events and the professions. */
export abstract class WebhooksPhase extends HierarchyPhase {
  // ---------------------------------------------------------------- webhooks

  /** professions of the job qualifications: one per job family, and internships */
  protected buildProfessions(): Profession[] {
    const professions: Profession[] = FAMILY_ORDER.map((family, p) => ({
      id: String(p + 1),
      title: FAMILIES[family].profession,
      isArchived: false,
      t9n: { title: { "fr-FR": FAMILIES[family].fr.charAt(0).toUpperCase() + FAMILIES[family].fr.slice(1) } },
    }));
    professions.push({ id: String(FAMILY_ORDER.length + 1), title: "Internships", isArchived: false, t9n: { title: { "fr-FR": "Stages" } } });
    return professions;
  }

  /**
   * An `employee.created` event per employee (event id = employee id) at the employee's creation,
   * and the attempts of the generated deliveries.
   */
  protected buildEvents(deliveries: readonly WebhookDelivery[]): Pick<Company, "events" | "webhookDeliveryAttempts" | "professions"> {
    const events: DirectoryEvent[] = this.employees.map((e) => ({
      id: e.id,
      topic: "employee.created",
      occurredAt: e.createdAt,
      employeeId: e.id,
    }));
    const attempts: WebhookDeliveryAttempt[] = [];
    for (const d of deliveries) {
      const event = events[Number(d.eventId) - 1];
      const start = Date.parse(event?.occurredAt ?? this.timestampOf(this.today * DAY_SECONDS));
      for (let n = 0; n < d.attemptsCount; n++) {
        const ok = d.status === "delivered" && n === d.attemptsCount - 1;
        attempts.push({
          id: String(attempts.length + 1),
          webhookDeliveryId: d.id,
          isSuccessful: ok,
          responseStatusCode: ok ? 202 : n % 2 === 0 ? 503 : null,
          errorResponseBody: ok ? "" : n % 2 === 0 ? "Service Unavailable" : "",
          signature: createHash("sha256").update(`${d.id}:${n}`).digest("hex"),
          createdAt: new Date(start + 60_000 * 2 ** n).toISOString(),
        });
      }
    }
    return { events, webhookDeliveryAttempts: attempts, professions: this.buildProfessions() };
  }

  protected buildDeliveries(endpoints: WebhookEndpoint[]): WebhookDelivery[] {
    if (endpoints.length === 0) return [];
    const rng = this.root.fork(SALT_WEBHOOKS);
    const tomorrow = (this.today + 1) * DAY_SECONDS;
    const kinds: Array<Pick<WebhookDelivery, "status" | "attemptsCount" | "nextAttemptAt" | "eventType">> = [
      { status: "delivered", attemptsCount: 1, nextAttemptAt: null, eventType: "employee.created" },
      { status: "undelivered", attemptsCount: 2, nextAttemptAt: this.timestampOf(tomorrow + rng.int(0, 6 * 3600)), eventType: "employee.created" },
      { status: "failed", attemptsCount: 5, nextAttemptAt: null, eventType: "employee.created" },
    ];
    return kinds.map((kind, index) => ({
      id: String(index + 1),
      webhookEndpointId: endpoints[index % endpoints.length]!.id,
      eventId: String(index + 1),
      ...kind,
    }));
  }}
