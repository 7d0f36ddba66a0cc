import type { Id } from "../data/model.js";
import { problemBody } from "../http/errors.js";
import { HttpError } from "../http/router.js";
import { markCompanyChanged } from "./derived.js";
import type { ContextSource } from "./engine.js";
import { recordEvent } from "./outbox.js";
import type { ResourceDef, View } from "./resource.js";
import { businessEstablishments } from "./resources/business-establishments.js";
import { departments } from "./resources/departments.js";
import { jobQualifications } from "./resources/job-qualifications.js";
import { legalEntities } from "./resources/legal-entities.js";
import { occupationCategories } from "./resources/occupation-categories.js";

/**
 * Changes to the reference data, made from outside the APIs (the admin route
 * `PATCH /_admin/reference/{collection}/{id}`, docs/directory.md#events-and-webhooks): what an HR team does
 * in the service's own interface. Each change records a `<type>.updated` event carrying the record
 * as it is after the change and its changed attributes as they were, delivered like any other.
 */

/** The collections an outside change may touch, and the attributes it may set on each (plain values only). */
const CHANGEABLE: ReadonlyArray<{ def: ResourceDef<any>; attributes: readonly string[] }> = [
  { def: departments, attributes: ["name", "description", "remoteId", "isArchived"] },
  { def: businessEstablishments, attributes: ["name", "remoteId", "timezoneId", "isArchived"] },
  { def: legalEntities, attributes: ["legalName", "remoteId", "isArchived"] },
  { def: jobQualifications, attributes: ["title", "rank"] },
  { def: occupationCategories, attributes: ["title"] },
];

export const REFERENCE_COLLECTIONS: readonly string[] = CHANGEABLE.map((c) => c.def.collection);

export type ReferenceChange = (collection: string, id: Id, patch: unknown, origin: string) => Record<string, unknown>;

/** Applies one change and answers the event it recorded (its `GET /events/{id}` representation). */
export function referenceChanges(current: ContextSource, serializeEvent: (event: ReturnType<typeof recordEvent>, view: View) => Record<string, unknown>): ReferenceChange {
  return (collection, id, patch, origin) => {
    const entry = CHANGEABLE.find((c) => c.def.collection === collection);
    if (!entry) throw new HttpError(404, problemBody(404, "Not Found", `no changeable collection "${collection}"; known: ${REFERENCE_COLLECTIONS.join(", ")}`));
    const before = current();
    const record = entry.def.byId(id, before) as Record<string, unknown> | undefined;
    if (!record) throw new HttpError(404, problemBody(404, "Not Found", `no ${entry.def.type} with id "${id}"`));
    if (typeof patch !== "object" || patch === null || Array.isArray(patch) || Object.keys(patch).length === 0) {
      throw new HttpError(400, problemBody(400, "Bad Request", `a JSON object of attributes to set; allowed: ${entry.attributes.join(", ")}`));
    }
    const errors: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(patch)) {
      const now = record[key];
      const sameKind = value === null ? now === null || typeof now === "string" : typeof value === typeof now || (now === null && typeof value === "string");
      if (!entry.attributes.includes(key)) errors[key] = [`not changeable here; allowed: ${entry.attributes.join(", ")}`];
      else if (!sameKind) errors[key] = [`must be a ${now === null ? "string or null" : typeof now}`];
    }
    if (Object.keys(errors).length > 0) throw new HttpError(400, problemBody(400, "Bad Request", "invalid change", errors));

    const view = (ctx = current()): View => ({ origin, include: new Set(), caller: { clientId: "admin", scopes: new Set(), visibleEstablishmentIds: null }, ctx });
    const shownBefore = entry.def.serialize(record, view(before));
    Object.assign(record, patch, { lastUpdatedAt: new Date().toISOString() });
    markCompanyChanged(before.company);
    const after = current();
    const shownAfter = entry.def.serialize(entry.def.byId(id, after), view(after));
    const previousAttributes = Object.fromEntries(Object.keys(shownAfter).filter((k) => JSON.stringify(shownAfter[k]) !== JSON.stringify(shownBefore[k])).map((k) => [k, shownBefore[k] ?? null]));
    // an establishment's event belongs to that establishment; the rest of the reference data to none
    const establishment = entry.def.type === "business-establishment" ? id : null;
    const event = recordEvent(after.company, { topic: `${entry.def.type}.updated`, resource: { type: entry.def.type, id }, data: shownAfter, previousAttributes, origin }, establishment);
    return serializeEvent(event, view());
  };
}
