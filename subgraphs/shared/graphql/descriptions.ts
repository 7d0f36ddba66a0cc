import { Kind, visit, type ConstDirectiveNode, type DocumentNode, type StringValueNode } from "graphql";

/**
 * Descriptions of the schema elements whose decorator carries none, applied to every subgraph's
 * SDL at build time (federation.ts): a description written on a decorator always wins. One
 * catalogue for the three subgraphs keeps the text of an element they share (an entity's `id`,
 * a stub of another subgraph's entity) identical everywhere, as composition wants it.
 *
 * Keys: `Type`, `Type.field`, `Type.field(argument)`, `Enum.VALUE`. What no key covers falls to
 * the rules below (connections, timestamps, paging and sort arguments, sort enum values), so a
 * new connection or sort needs no entry.
 */
const CATALOGUE: Readonly<Record<string, string>> = {
  // entity stubs: the owner's text
  BusinessEstablishment: "A site of a legal entity where employees work.",
  Department: "A node of the department tree (up to 9 levels, up to 99 children per parent).",
  Employee: "A person of the directory.",
  Employment: "A continuous relationship between an employee and a legal entity.",
  EmploymentTemplate: "A kind of employment (work contract, internship, contractor agreement...).",
  LegalEntity: "A company of the group: the employer party of employments.",
  JobQualification: "A qualification level within a profession.",
  OccupationCategory: "A socio-professional category of job positions.",
  Taxonomy: "A named set of labels (cost centres, skills...) that attributes can take.",
  TaxonomyLabel: "One label of a taxonomy.",
  // stubs in people of the other subgraphs' entities, for `Node` (node.ts)
  AxisSection: "An analytical item attached to time entries (cost centre, project, task...).",
  Event: "Something that happened at the directory, as webhooks deliver it; readable with the scope events. An event about an employee the caller may not see is not shown.",
  Profession: "A profession: what the qualification levels of job positions rank within.",
  TimeEntry: "A working-time sequence of a person on one day (legacy time entry).",
  WebhookDelivery: "The job of sending one event to one webhook endpoint (scope webhook-deliveries).",
  WebhookDeliveryAttempt: "One POST of a delivery's event to its endpoint; readable with the scope webhook-deliveries.",
  WebhookEndpoint: "A URL registered at the directory to receive its events; readable with the scope webhook-endpoints.",
  WorkContract: "A legacy work contract: the legacy view of an employment, with the same id.",
  EmployeeSort: "Orders of the employee list.",
  EmploymentSort: "Orders of the employment list.",
  JobPositionSort: "Orders of the job-position list.",
  ProbationaryPeriodSort: "Orders of the probationary-period list.",
  EmployeeAttributeSort: "Orders of the employee-attribute list.",
  JobPositionAttribute: "An attribute of a job position that can differ from the employee's previous job position.",

  // people
  "Employee.givenName": "First name.",
  "Employee.familyName": "Last name; the employee list sorts by it.",
  "Employee.employeeNumber": "The company's own number for the person (payroll, badge...); null when none was given.",
  "Employee.email": "Work email address; null when none is known.",
  "Employee.phoneNumber": "Work phone number, as entered.",
  "Employee.birthDay": "Day and month of birth, without the year (for birthday lists); null when unknown.",
  "Employee.portrait": "The portrait picture; null when the employee has none.",
  "Employee.applicableJobPosition": "The job position in force today, else the next one, else the last one: where the person's department, manager and job title come from.",
  "Employee.personalRecord": "Private data (birth date, bank account, insurance number...); null when none exists or the caller may not read it.",
  "Employee.attributes(definitionIds)": "Only values of these attribute definitions (at most 100).",
  "BirthDay.day": "Day of the month, 1 to 31.",
  "BirthDay.month": "Month, 1 (January) to 12.",
  "Employment.remoteId": "Identifier of the employment in a third-party system (payroll...); not necessarily unique.",
  "Employment.status": "ACTIVE when the employment covers today, UPCOMING when it starts later, DEACTIVATED when it has ended.",
  "Employment.startsOn": "First day of the employment.",
  "Employment.endsOn": "Last day of the employment; null when open-ended.",
  "Employment.document": "The signed contract document; null when none is attached.",
  "Employment.template": "The kind of employment (work contract, internship...).",
  "Employment.employee": "The person employed.",
  "Employment.probationaryPeriods": "The probationary periods of this employment, usually one or none.",
  "EmploymentStatus.ACTIVE": "Has an employment as of today.",
  "EmploymentStatus.UPCOMING": "Has none today but one in the future.",
  "EmploymentStatus.DEACTIVATED": "Had one, has none now.",
  "EmploymentTerm.PERMANENT": "Open-ended.",
  "EmploymentTerm.FIXED": "With a planned end date.",
  "EmploymentTemplate.term": "Whether employments of this kind are open-ended or fixed-term.",
  "JobPosition.remoteId": "Identifier of the job position in a third-party system; not necessarily unique.",
  "JobPosition.status": "ACTIVE while the position is in force, UPCOMING before it starts, DEACTIVATED once it has ended.",
  "JobPosition.employment": "The employment this position is a stage of.",
  "JobPosition.employee": "The person holding the position.",
  "JobPosition.businessEstablishment": "The establishment where the person works in this position.",
  "JobPosition.department": "The department of the position.",
  "JobPosition.manager": "The person's manager in this position.",
  "JobPosition.jobQualification": "The qualification level of the position.",
  "JobPosition.occupationCategory": "The socio-professional category of the position.",
  "JobPosition.workingTimeArrangement": "The working-time arrangement, where the environment uses that feature; null otherwise.",
  "JobPosition.document": "A document attached to the position (e.g. an amendment); null when none.",
  "JobPosition.notes": "Free notes, at most 500 characters.",
  "JobPositionAttribute.REMOTE_ID": "The third-party identifier changed.",
  "JobPositionAttribute.JOB_TITLE": "The job title changed.",
  "JobPositionAttribute.JOB_QUALIFICATION": "The qualification changed.",
  "JobPositionAttribute.OCCUPATION_CATEGORY": "The occupation category changed.",
  "JobPositionAttribute.WORKING_TIME_ARRANGEMENT": "The working-time arrangement changed.",
  "JobPositionAttribute.DEPARTMENT": "The department changed.",
  "EmployeeAttribute.definition": "What the value means (name, JSON Schema of the value, taxonomy).",
  "EmployeeAttribute.employee": "The person the value belongs to.",
  "EmployeeAttribute.value": "The value, any JSON (text, number, object...); its shape is given by `definition.schema`.",
  "EmployeeAttributeDefinition.multipleValueHandling": "How several values of the definition combine; null for a single value.",
  "EmployeeAttributeDefinition.propertyDescriptions": "Descriptions of the value's properties, by property name (for object values).",
  "EmployeeAttributeFilter.definitionIds": "Only values of these definitions (at most 100).",
  "EmployeeAttributeFilter.employeeIds": "Only values of these employees (at most 100).",
  "EmployeeAttributeFilter.valueProperties": "Only object values whose properties equal (or differ from) the given values.",
  "EmployeePersonalRecord.title": "Form of address; UNKNOWN when not given.",
  "EmployeePersonalRecord.legalGender": "Gender as registered with the authorities; UNKNOWN when not given.",
  "EmployeePersonalRecord.birthDate": "Date of birth; null when unknown.",
  "EmployeePersonalRecord.bankAccount": "The account salaries are paid into; null when none is known.",
  "EmployeePersonalRecord.phoneNumber": "Private phone number; null when none is known.",
  "EmployeePersonalRecord.email": "Private email address (3 to 255 characters); null when none is known.",
  "EmployeePersonalRecord.employee": "The person the record describes.",
  "EmployeePersonalRecordFilter.employeeIds": "Only the records of these employees (at most 100).",
  "EmployeePersonalRecordFilter.legalGenders": "Only records with one of these legal genders.",
  "BankAccount.format": "Format of the account identifier, e.g. iban.",
  "BankAccount.bankName": "Name of the bank.",
  "BankAccount.accountIdentifier": "The account number in `format` (e.g. the IBAN).",
  "BankAccount.bankIdentifier": "The bank's identifier (e.g. BIC); null when not given.",
  "PersonalTitle.UNKNOWN": "Not given.",
  "PersonalTitle.MISTER": "Mr.",
  "PersonalTitle.MISS": "Ms.",
  "LegalGender.UNKNOWN": "Not specified.",
  "LegalGender.MALE": "Male.",
  "LegalGender.FEMALE": "Female.",
  "LegalGender.DIVERSE": "Diverse, where the law of the country recognises it.",
  "ProbationaryPeriod.employment": "The employment on probation.",
  "ProbationaryPeriod.initialEndsOn": "Last day of the period as first agreed.",
  "ProbationaryPeriodFilter.employmentIds": "Only the periods of these employments (at most 100).",
  "EmployeeFilter.ids": "Only these employees (at most 100).",
  "EmployeeFilter.status": "Only employees with one of these statuses.",
  "EmployeeFilter.applicableEmploymentRemoteIds": "Only employees whose applicable employment has one of these third-party ids.",
  "EmployeeFilter.applicableEmploymentStartsOnBetween": "Only employees whose applicable employment starts in this range, both days inclusive.",
  "EmployeeFilter.applicableEmploymentEndsOnBetween": "Only employees whose applicable employment ends in this range, both days inclusive.",
  "EmployeeFilter.applicableEmploymentStartsOn": "Only employees whose applicable employment starts on this day.",
  "EmployeeFilter.jobQualificationIds": "Only employees whose applicable job position has one of these qualifications.",
  "EmployeeFilter.jobQualificationRemoteIds": "Only employees whose applicable job position's qualification has one of these third-party ids.",
  "EmployeeFilter.occupationCategoryIds": "Only employees whose applicable job position has one of these occupation categories.",
  "EmployeeFilter.occupationCategoryRemoteIds": "Only employees whose applicable job position's occupation category has one of these third-party ids.",
  "EmploymentFilter.employeeIds": "Only the employments of these employees (at most 100).",
  "EmploymentFilter.legalEntityIds": "Only employments with these legal entities (at most 100).",
  "EmploymentFilter.templateIds": "Only employments made from these templates (at most 100).",
  "EmploymentFilter.startsOn": "Only employments starting on this day.",
  "JobPositionFilter.startsOn": "Only positions starting on this day.",
  "FileReference.id": "Identifier of the file at the directory service.",
  "WorkingTimeArrangement.id": "Identifier of the arrangement.",

  // organisation
  "Department.name": "Name of the department as shown in the organisation chart.",
  "BusinessEstablishment.name": "Name of the establishment.",
  "BusinessEstablishment.address": "Postal address of the establishment.",
  "BusinessEstablishment.industryCode": "Main activity classification of the establishment (e.g. format franceAPE).",
  "LegalEntity.businessEstablishments(first)": "How many establishments to return, 0 to 100; default 25.",
  "JobQualification.title": "Name of the qualification level.",
  "Profession.id": "Identifier of the profession.",
  "FormattedIdentifier.format": "How `value` is to be read and validated, e.g. franceSIREN, franceSIRET, franceAPE, frenchSSN; `other` is not validated.",
  "FormattedIdentifier.value": "The identifier itself.",
  "PostalAddress.addressLines": "Street lines, in order.",
  "PostalAddress.postalCode": "Postal code.",
  "PostalAddress.locality": "City or town.",
  "PostalAddress.administrativeArea": "Region, state or province, where the country uses one.",
  "TaxonomyLabel.isArchived": "Whether the label is archived: kept on existing values, no longer offered for new ones.",
  "TaxonomyLabelSort.ID_ASC": "By id ascending: the order of creation (the default).",
  "TaxonomyLabelSort.ID_DESC": "By id descending: newest first.",
  "WebhookDelivery.status": "Outcome of the delivery so far.",
  "WebhookDeliveryStatus.DELIVERED": "The endpoint accepted the event.",
  "WebhookDeliveryStatus.UNDELIVERED": "Not accepted yet; another attempt is planned (`nextAttemptAt`).",
  "WebhookDeliveryStatus.FAILED": "Every attempt was refused; no more attempts will be made.",
  "Mutation.triggerWebhookTestDelivery(webhookEndpointId)": "The registered endpoint to send the sample event to.",

  // legacy-time
  "AxisSection.code": "Short code of the section (e.g. a cost-centre number), unique within its axis.",
  "AxisSection.description": "Free description; null when none.",
  "AxisSection.isPublic": "Whether every user may book time on the section, not only those it is assigned to.",
  "AxisSection.owner": "The person responsible for the section; null when none.",
  "AxisSectionInput.code": "New short code of the section.",
  "AxisSectionInput.axisId": "Moves the section to another analytical axis.",
  "AxisSectionInput.isPublic": "Whether every user may book time on the section.",
  // the members people serves on Employment.workContract, in both subgraphs
  "WorkContract.id": "Equals the id of the employment.",
  "WorkContract.externalId": "Identifier in a third-party system; may be non-unique.",
  "WorkContract.startsOn": "First day of the contract (the employment's start).",
  "WorkContract.endsOn": "Null if unknown.",
  "WorkContract.isApplicable": "The employee's applicable contract: the ongoing one today; else the first upcoming one; else the last one.",
  "WorkContract.trialPeriodDays": "Length of the initial trial period in days.",
  "WorkContract.renewedTrialPeriodDays": "Initial length plus the renewal, in days.",
  "WorkContract.trialPeriodEndsOn": "Last day of the initial trial period (legacy `trialPeriodEndDate`).",
  "WorkContract.renewedTrialPeriodEndsOn": "Last day of the renewed trial period (legacy `trialPeriodEndDate2`).",
  "WorkContract.lastUpdatedAt": "When the contract last changed (legacy local time).",
  "WorkContract.owner": "The person employed under the contract.",
  "WorkContract.establishment": "The establishment the contract is attached to.",
  "WorkContract.internshipSupervisor": "The supervisor of an internship; null for other contracts.",
  "WorkContract.isArchived": "Whether the contract is archived.",
  "WorkContract.createdAt": "When the contract was created (legacy local time).",
  "TimeEntry.owner": "The person whose time this is.",
  "TimeEntry.unit": "Whether the duration counts hours or days.",
  "TimeEntry.creationSource": "How the entry was created.",
  "TimeEntry.comment": "The entry's comment; null when none.",
  "TimeEntry.timesheet": "The week's timesheet holding the entry; its status decides whether the entry may change (rule 1).",
  "TimeEntryInput.unit": "New unit of the duration.",
  "TimeEntryInput.creationSource": "New creation source.",
  "TimeEntryComment.id": "Identifier of the comment.",
  "TimeEntryComment.content": "Text of the comment.",
  "TimeEntryValidationError.message": "What is wrong, in words a user can read.",
  "InvalidInputError.message": "What is wrong, in words a user can read.",
  "Timesheet.status": "OPEN while entries may change; SUBMITTED and APPROVED lock them.",
  "Timesheet.mode": "Whether the week records attendance (hours present) or activity (time per axis section).",
  "TimesheetStatus.OPEN": "Being filled in; entries may change.",
  "TimesheetStatus.SUBMITTED": "Sent for approval; its entries are locked.",
  "TimesheetStatus.APPROVED": "Approved; its entries are locked.",
  "TimesheetMode.ATTENDANCE": "Hours present, without axis sections.",
  "TimesheetMode.ACTIVITY": "Time booked on axis sections (cost centre > project > task).",
  "LegacyGender.MALE": "Male.",
  "LegacyGender.FEMALE": "Female.",
  "LegacyGender.MISC": "Another gender.",
  "LegacyGender.UNDEFINED": "Not given.",
  "LegacyUser.name": "Full name, given name first.",
  "LegacyUser.givenName": "Given name.",
  "LegacyUser.familyName": "Family name.",
  "LegacyUser.login": "Login name in the legacy applications.",
  "LegacyUser.email": "Work email address.",
  "LegacyUser.gender": "Gender as recorded by the legacy API.",
  "LegacyUser.address": "Private postal address, one text.",
  "LegacyUser.directLine": "Direct work phone line.",
  "LegacyUser.jobTitle": "Job title as the legacy API holds it.",
  "LegacyUser.personalEmail": "Private email address.",
  "LegacyUser.personalMobile": "Private mobile phone number.",
  "LegacyUser.professionalMobile": "Work mobile phone number.",
  "LegacyUser.quote": "A personal quote shown on the profile.",
  "LegacyUser.picture": "The portrait; null when none.",
  "LegacyUser.bankAccount": "The bank account salaries are paid into (legacy fields; each may be null).",
  "LegacyUser.department": "The department the user belongs to.",
  "LegacyUser.legalEntity": "The legal entity employing the user (as a legacy reference).",
  "LegacyBankAccount.bankName": "Name of the bank.",
  "LegacyBankAccount.iban": "International bank account number.",
  "LegacyBankAccount.bic": "Bank identifier code (SWIFT).",
  "LegacyPicture.id": "Identifier of the picture file.",
  "LegacyPicture.name": "File name of the picture.",
  "LegacyReference.id": "Legacy integer id of the item.",
  "LegacyReference.name": "Display name of the item.",
  "LegacyDepartment.name": "Name of the department.",
  "LegacyDepartment.code": "Short code of the department; null when none.",
  "LegacyDepartment.isActive": "Whether the department is in use.",
  "LegacyDepartment.parent": "The department above; null for the root.",
  "LegacyEstablishment.name": "Name of the establishment in the legacy API.",
  "LegacyEstablishment.code": "Short code of the establishment; null when none.",
  "LegacyEstablishment.address": "Postal address as the legacy API holds it.",
  "LegacyEstablishment.isArchived": "Whether the establishment is archived.",
  "LegacyEstablishment.createdAt": "When the establishment was created (legacy local time).",
  "LegacyEstablishmentAddress.street": "Street line.",
  "LegacyExtendedDataEntry.value": "The value, any JSON.",
  "LegacyExtendedDataInput.value": "The new value, any JSON; null clears it.",
  "LegacyWorkCycleInput.id": "Id of the period to keep; omitted for a new period.",
  "LegacyWorkCycleInput.workCycleId": "The work cycle to follow in the period.",
  "LegacyUserInput.givenName": "New given name.",
  "LegacyUserInput.familyName": "New family name.",
  "LegacyUserInput.email": "New work email address.",
  "LegacyUserInput.login": "New login name.",
  "LegacyUserInput.employeeNumber": "New employee number, unique per legal entity.",
  "LegacyUserInput.legalEntityId": "Legacy id of the new legal entity.",
  "LegacyUserInput.contractStartsAt": "New contract start (legacy `dtContractStart`).",
  "LegacyUserInput.socioProfessionalCategoryId": "Legacy id of the new socio-professional category.",
  "LegacyUserInput.departmentId": "The new department.",
  "LegacyUserInput.rolePrincipalId": "Legacy id of the new main role.",
  "LegacyUserInput.leaveProfileId": "Legacy id of the new leave profile.",
  "LegacyUserInput.gender": "New gender.",
  "LegacyUserInput.allowsElectronicPayslip": "New consent to electronic payslips.",
  "Mutation.updateTimeEntry(id)": "The time entry to change.",
  "Mutation.updateTimeEntry(input)": "The fields to change; the others keep their value.",
  "Mutation.updateAxisSection(id)": "The axis section to change.",
  "Mutation.updateAxisSection(input)": "The fields to change; the others keep their value.",
  "Mutation.updateLegacyUser(input)": "The fields to change; the others keep their value.",

  // global object identification (node.ts)
  Node: "An object of the graph with a graph-wide identifier, `nodeId`: what Relay and client caches key records by.",
  "Node.nodeId": "Graph-wide identifier of the object: opaque, stable, never the same as another object's.",
  "Query.node": "Any object of the graph by its `nodeId`; null when the record does not exist (or, for types another subgraph resolves, when none of the fields asked can be read). One upstream call per type per 100 objects asked.",
  "Query.node(nodeId)": "The object's `nodeId`, as the graph gave it.",
  "Query.nodes": "Objects of the graph by their `nodeId`, in the order asked; null where a record does not exist. One upstream call per type per 100 objects asked.",
  "Query.nodes(nodeIds)": "Up to 100 `nodeId`s, as the graph gave them.",

  // shared value types
  "PageInfo.hasNextPage": "Whether another page follows; ask for it with `after: endCursor`.",
  "PageInfo.hasPreviousPage": "Whether a page precedes this one.",
  "PageInfo.startCursor": "Cursor of the first item of the page; null on an empty page.",
  "PageInfo.endCursor": "Cursor of the last item of the page: pass it as `after` for the next page; null on an empty page.",
  "DateRange.from": "First day of the range, inclusive; omitted: open.",
  "DateRange.to": "Last day of the range, inclusive; omitted: open.",
  "Translation.text": "The text in that language.",
};

const SORT_WORDS: Readonly<Record<string, string>> = {
  ID: "id, the order of creation",
  FAMILY_NAME: "family name",
  CREATED_AT: "creation time",
  STARTS_ON: "first day",
  ENDS_ON: "last day (open-ended ones last when ascending)",
  VALUE: "value",
  DEFINITION_ID: "definition id",
  NAME: "name",
};

/** `BusinessEstablishment` -> `business establishment` */
const words = (pascal: string) => pascal.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** The description a naming rule gives what the catalogue leaves out (connections, edges, common arguments and fields); null when none applies. */
function describedByRule(type: string, field: string | null, argument: string | null, value: string | null): string | null {
  const connection = /^(\w+)Connection$/.exec(type);
  const edge = /^(\w+)Edge$/.exec(type);
  if (value !== null) {
    const sort = /^(\w+)_(ASC|DESC)$/.exec(value);
    if (type.endsWith("Sort") && sort && SORT_WORDS[sort[1]!]) return `By ${SORT_WORDS[sort[1]!]}, ${sort[2] === "ASC" ? "ascending" : "descending"}.`;
    return null;
  }
  if (field === null) return null;
  if (argument !== null) {
    if (argument === "id") return `Identifier of the ${type === "Query" ? words(field) : words(type)} to read.`;
    if (argument === "first") return "How many items to return, 0 to 100; default 25.";
    if (argument === "after") return "The `endCursor` of the previous page; omitted for the first page.";
    if (argument === "filter") return "Only the items that match every filter given.";
    if (argument === "sort") return "Order of the items: the first entry sorts, the next ones break ties; default by id.";
    if (argument === "lang") return "A language tag such as fr-FR; without a translation in it, the invariant value.";
    return null;
  }
  if (connection && field === "edges") return `The ${words(connection[1]!)} items of this page, each with its cursor.`;
  if (connection && field === "nodes") return `The ${words(connection[1]!)} items of this page, in order.`;
  if (connection && field === "pageInfo") return "Where this page stands in the list; `endCursor` continues it.";
  if (edge && field === "cursor") return "Position of this item in the list: pass it as `after` to continue after it.";
  if (edge && field === "node") return `The ${words(edge[1]!)}.`;
  // unique within its type only: Employee 5 and Department 5 both exist; `nodeId` is the graph-wide one
  if (field === "id") return `Identifier of the ${words(type)} in the directory, unique among ${words(type)} records only: a record of another type can have the same id.`;
  if (field === "nodeId") return `Graph-wide identifier of this ${words(type)}: opaque, stable, never the same as another object's; \`node(nodeId:)\` reads it back. Key client caches by it, not by \`id\`.`;
  if (field === "createdAt") return "When it was created (UTC).";
  if (field === "lastUpdatedAt") return "When it was last created, changed or deleted (UTC).";
  if (field === "lastArchivedAt") return "When it was last archived; null if never.";
  if (field === "isArchived") return "Whether it is archived.";
  if (field.endsWith("Translations")) return `The ${words(field.slice(0, -"Translations".length))} in every language it is translated into.`;
  if (type.endsWith("Filter")) {
    if (field === "ids") return "Only these items (at most 100).";
    if (field === "remoteIds") return "Only items with one of these third-party ids (at most 100).";
    if (field === "status") return "Only items with one of these statuses.";
    const between = /^(\w+)Between$/.exec(field);
    if (between) return `Only items whose \`${between[1]}\` falls in this range, both days inclusive.`;
    const ids = /^(\w+)Ids$/.exec(field);
    if (ids) return `Only items whose \`${ids[1]}\` is one of these (at most 100 ids).`;
  }
  return null;
}

function describedAs(existing: StringValueNode | undefined, key: string, fallback: () => string | null): StringValueNode | undefined {
  if (existing && existing.value.trim()) return existing;
  const text = CATALOGUE[key] ?? fallback();
  return text ? { kind: Kind.STRING, value: text, block: text.length > 80 } : existing;
}

/** The subgraph document with a description on every type, field, argument and enum value the rules or the catalogue cover. */
export function describeDocument(document: DocumentNode): DocumentNode {
  const typeKinds = new Set<string>([Kind.OBJECT_TYPE_DEFINITION, Kind.INPUT_OBJECT_TYPE_DEFINITION, Kind.ENUM_TYPE_DEFINITION, Kind.INTERFACE_TYPE_DEFINITION, Kind.UNION_TYPE_DEFINITION, Kind.SCALAR_TYPE_DEFINITION]);
  return visit(document, {
    enter(node) {
      if (!typeKinds.has(node.kind)) return undefined;
      const type = node as { name: { value: string }; description?: StringValueNode; fields?: readonly any[]; values?: readonly any[]; directives?: readonly ConstDirectiveNode[] };
      const name = type.name.value;
      if (/^(_|link__|federation__)/.test(name)) return false;
      const root = name === "Query" || name === "Mutation" || name === "Subscription";
      return {
        ...type,
        description: root ? type.description : describedAs(type.description, name, () => null),
        fields: type.fields?.map((field) => ({
          ...field,
          description: describedAs(field.description, `${name}.${field.name.value}`, () => describedByRule(name, field.name.value, null, null)),
          arguments: field.arguments?.map((arg: any) => ({
            ...arg,
            description: describedAs(arg.description, `${name}.${field.name.value}(${arg.name.value})`, () => describedByRule(name, field.name.value, arg.name.value, null)),
          })),
        })),
        values: type.values?.map((value) => ({
          ...value,
          description: describedAs(value.description, `${name}.${value.name.value}`, () => describedByRule(name, null, null, value.name.value)),
        })),
      };
    },
  });
}
