import { Kind, visit, type ConstDirectiveNode, type DocumentNode } from "graphql";

/**
 * `@tag`s for contracts (variants of the supergraph that leave elements out, as GraphOS contracts
 * build them), applied to every subgraph's SDL at build time (federation.ts):
 * - `personal`: private data of a person — birth date, private contacts and address, bank
 *   account, insurance number, gender, nationality, private vehicle — and the entry points that
 *   lead only to it (`Employee.personalRecord`, `employeePersonalRecord(s)`);
 * - `legacy`: what the legacy API serves (profiles, work contracts, time entries, axis sections);
 * - `write`: every mutation.
 */
export const CONTRACT_TAGS = ["personal", "legacy", "write"] as const;
export type ContractTag = (typeof CONTRACT_TAGS)[number];

const PERSONAL = [
  "Query.employeePersonalRecord",
  "Query.employeePersonalRecords",
  "Employee.personalRecord",
  "Employee.birthDay",
  ...["title", "legalGender", "birthDate", "insuranceNumber", "nationalitiesCountryCodes", "bankAccount", "phoneNumber", "email"].map((f) => `EmployeePersonalRecord.${f}`),
  ...["birthDate", "address", "personalEmail", "personalMobile", "bankAccount", "gender", "nationalityCode", "frenchCarTaxHorsePower", "frenchMotorcycleTaxHorsePower"].map(
    (f) => `LegacyUser.${f}`,
  ),
  ...["birthDate", "address", "personalEmail", "personalMobile", "gender", "nationalityCode", "bankName", "rib", "iban", "bic", "frenchCarTaxHorsePower", "frenchMotorcycleTaxHorsePower"].map(
    (f) => `LegacyUserInput.${f}`,
  ),
];

const LEGACY = [
  "Employee.legacyUser",
  "Employee.legacyProfile", // its name before 0.1.0, deprecated
  "Employee.workContracts",
  "Employee.applicableWorkContract",
  "Employee.timeEntries",
  "Employee.timeEntryConnection",
  "Employment.workContract",
  "Department.legacy",
  "BusinessEstablishment.legacy",
  "BusinessEstablishment.workContracts",
  "Query.workContract",
  "Query.workContracts",
  "Query.legacyEstablishments",
  "Query.timeEntries",
  "Query.timeEntry",
  "Query.axisSection",
  "Query.axisSections",
  "Query.legacyUsers",
  "Mutation.updateTimeEntry",
  "Mutation.updateAxisSection",
  "Mutation.updateLegacyUser",
];

/**
 * Entities tagged as a whole: they implement `Node` (node.ts), so `node(nodeId:)` reaches them
 * even once every field leading to them is gone; a contract without their tag leaves the type out.
 */
const TYPE_TAGS: Readonly<Record<string, ContractTag>> = {
  EmployeePersonalRecord: "personal",
  WorkContract: "legacy",
  TimeEntry: "legacy",
  AxisSection: "legacy",
};

const TAGS = new Map<string, ContractTag[]>();
for (const [tag, fields] of [["personal", PERSONAL], ["legacy", LEGACY]] as const) {
  for (const field of fields) TAGS.set(field, [...(TAGS.get(field) ?? []), tag]);
}

/** The tags of a field: the catalogue's, plus `write` on every mutation. */
export function tagsOf(type: string, field: string): ContractTag[] {
  const tags = TAGS.get(`${type}.${field}`) ?? [];
  return type === "Mutation" ? [...tags, "write"] : tags;
}

const tagDirective = (name: string): ConstDirectiveNode => ({
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: "tag" },
  arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "name" }, value: { kind: Kind.STRING, value: name } }],
});

/** The subgraph document with `@tag(name:)` on the fields the catalogue names, and on the entities tagged as a whole. */
export function tagDocument(document: DocumentNode): DocumentNode {
  const tagFields = (node: any) => ({
    ...node,
    fields: node.fields?.map((field: any) => {
      const tags = tagsOf(node.name.value, field.name.value);
      return tags.length ? { ...field, directives: [...(field.directives ?? []), ...tags.map(tagDirective)] } : field;
    }),
  });
  const tagType = (node: any) => {
    const fields = tagFields(node);
    const tag = TYPE_TAGS[node.name.value];
    return tag ? { ...fields, directives: [...(fields.directives ?? []), tagDirective(tag)] } : fields;
  };
  return visit(document, {
    ObjectTypeDefinition: tagType,
    ObjectTypeExtension: tagFields,
    InputObjectTypeDefinition: tagFields,
  });
}
