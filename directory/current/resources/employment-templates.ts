import type { EmploymentTemplate } from "../../data/model.js";
import { collectionHref, link, ref } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { self, withLinks } from "./common.js";


export function serializeEmploymentTemplate(r: EmploymentTemplate, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "employment-template", "employment-templates", r.id),
      title: r.title,
      legalEntities: r.legalEntityIds.map((id) => ref(view, "legal-entity", "legal-entities", id)),
      term: r.term,
      audience: r.audience,
      t9n: r.t9n,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
    },
    () => ({
      // Extension definitions are only known by address; no scope of the interface covers them,
      // so the link is always given.
      extensionDefinitions: link(
        view,
        collectionHref(view, "employee-extension-definitions", {
          "extends.type": "employment-template",
          "extendedEmploymentTemplate.id": r.id,
        }),
      ),
    }),
  );
}

export const employmentTemplates: ResourceDef<EmploymentTemplate> = {
  collection: "employment-templates",
  type: "employment-template",
  scope: "employment-templates",
  records: (ctx) => ctx.company.employmentTemplates,
  byId: (id, ctx) => ctx.lookup.employmentTemplates.get(id),
  serialize: serializeEmploymentTemplate,
};
