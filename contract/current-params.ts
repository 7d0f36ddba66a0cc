/**
 * The query parameters of the current API per operation, as the production service publishes them
 * (its OpenAPI document of version 2024-11-01, whose `/lucca-api` prefix is our `/service-api`),
 * the part of the contract both sides rely on (docs/interface.md#query-parameters): the twin
 * accepts no other parameter on a list (a 400 naming it), and the facade sends no other (the
 * contract test, test/contract/facade-requests.test.ts, records every request it sends).
 *
 * - Every list takes `include`, `page` and `limit` (the interface says so of every list; the
 *   production document leaves `page` and `limit` out of a few), every single read `include` only.
 * - `sort` is a parameter of the lists that publish it, not of every list.
 * - A few lists the production document does not hold are specified by the interface
 *   (`INTERFACE_OPERATIONS`); where it leaves a filter's name unsaid, the name is ours, made the
 *   way production names its filters.
 * - A link production returns may carry a parameter its document does not list on that path
 *   (`LINK_PARAMS`): an employee's `links.jobPositions` filters by `employment.employee.id`.
 */

/** Every list's parameters. */
export const LIST_PARAMS: readonly string[] = ["include", "page", "limit"];
/** Every single read's parameters. */
export const READ_PARAMS: readonly string[] = ["include"];

/** `"<METHOD> <path>"` -> its parameters beyond LIST_PARAMS (a list) or READ_PARAMS (a `{id}` read). */
export const PRODUCTION_OPERATIONS: Readonly<Record<string, readonly string[]>> = {
  "GET /service-api/legal-entities": ["countryCode", "isArchived"],
  "GET /service-api/legal-entities/{id}": [],
  "GET /service-api/business-establishments": ["legalEntity.id", "search", "isArchived"],
  "GET /service-api/business-establishments/{id}": [],
  "GET /service-api/departments": ["search", "isArchived"],
  "GET /service-api/departments/{id}": [],
  "GET /service-api/professions": ["isArchived"],
  "GET /service-api/professions/{id}": [],
  "GET /service-api/occupation-categories": ["businessEstablishments.id", "search"],
  "GET /service-api/occupation-categories/{id}": [],
  "GET /service-api/job-qualifications": ["rank", "profession.id"],
  "GET /service-api/job-qualifications/{id}": [],
  "GET /service-api/employees": [
    "search",
    "id",
    "email",
    "status",
    "applicableEmployment.legalEntity.id",
    "applicableEmployment.remoteId",
    "applicableEmployment.startsOn",
    "applicableEmployment.startsOn.between",
    "applicableEmployment.endsOn",
    "applicableEmployment.endsOn.between",
    "applicableEmployment.template.id",
    "applicableEmployment.template.term",
    "applicableJobPosition.remoteId",
    "applicableJobPosition.businessEstablishment.id",
    "applicableJobPosition.department.id",
    "applicableJobPosition.manager.id",
    "applicableJobPosition.jobQualification.id",
    "applicableJobPosition.jobQualification.remoteId",
    "applicableJobPosition.occupationCategory.id",
    "applicableJobPosition.occupationCategory.remoteId",
    "sort",
  ],
  "GET /service-api/employees/{id}": [],
  "GET /service-api/portraits/{id}": [],
  "GET /service-api/employee-personal-records": ["employee.id", "legalGender", "nationalitiesCountryCodes"],
  "GET /service-api/employee-personal-records/{id}": [],
  "GET /service-api/employments": [
    "id",
    "remoteId",
    "employee.id",
    "legalEntity.id",
    "template.id",
    "start.date",
    "status",
    "start.date.between",
    "end.date",
    "end.date.between",
    "sort",
  ],
  "GET /service-api/employments/{id}": [],
  "GET /service-api/employment-templates": [],
  "GET /service-api/employment-templates/{id}": [],
  "GET /service-api/job-positions": [
    "id",
    "remoteId",
    "employment.id",
    "businessEstablishment.id",
    "status",
    "startsOn",
    "startsOn.between",
    "endsOn",
    "endsOn.between",
    "jobQualification.id",
    "occupationCategory.id",
    "manager.id",
    "department.id",
    "updatedAttributes",
    "sort",
  ],
  "GET /service-api/job-positions/{id}": [],
  "GET /service-api/probationary-periods": [
    "employment.employee.id",
    "employment.id",
    "startsOn.between",
    "endsOn.between",
    "initialEndsOn.between",
    "extendedEndsOn.between",
    "isExtended",
    "sort",
  ],
  "GET /service-api/probationary-periods/{id}": [],
  "GET /service-api/events": ["status"],
  "GET /service-api/events/{id}": [],
  "GET /service-api/webhook-endpoints": ["status", "application.id"],
  "POST /service-api/webhook-endpoints": [],
  "GET /service-api/webhook-endpoints/{id}": [],
  // the vendor's own integration deletes its endpoint so (the document has no DELETE)
  "DELETE /service-api/webhook-endpoints/{id}": [],
  "GET /service-api/webhook-deliveries": [],
  "POST /service-api/webhook-deliveries": ["webhookEndpoint.id", "event.topic"],
  "GET /service-api/webhook-deliveries/{id}": [],
  "GET /service-api/webhook-delivery-attempts": [],
  "GET /service-api/webhook-delivery-attempts/{id}": [],
};

/** Current-API operations the interface specifies that the production document does not hold. */
export const INTERFACE_OPERATIONS: Readonly<Record<string, readonly string[]>> = {
  "GET /service-api/employee-attributes": ["id", "definition.id", "employee.id", "applicability.asOf", "value", "-value", "lastUpdatedAt.between", "sort"],
  "GET /service-api/employee-attributes/{id}": [],
  "GET /service-api/taxonomies": ["search"],
  "GET /service-api/taxonomy-labels": ["taxonomy.id", "search", "isArchived", "sort"],
  "GET /service-api/taxonomy-labels/{id}": [],
};

/** Parameter patterns of an interface operation: `value.<property>` and `-value.<property>` of employee attributes. */
export const INTERFACE_PARAM_PATTERNS: Readonly<Record<string, RegExp>> = {
  "GET /service-api/employee-attributes": /^-?value\.[^.\s]+(\.[^.\s]+)*$/,
};

/** Parameters production's own links carry on a path beyond its published ones. */
export const LINK_PARAMS: Readonly<Record<string, readonly string[]>> = {
  // an employee's links.jobPositions
  "GET /service-api/job-positions": ["employment.employee.id"],
  // a delivery's links.attempts
  "GET /service-api/webhook-delivery-attempts": ["webhookDelivery.id"],
  // an employee's links.portrait: the file's address with its token
  "GET /service-api/files/{id}": ["token"],
};

/** Whether an operation key is a single read (`/{id}` last). */
function isRead(key: string): boolean {
  return key.endsWith("/{id}");
}

/**
 * Every parameter an operation of the current API takes (the production document's, the
 * interface's, the ones production's links carry); null when neither publishes the operation.
 */
export function publishedParams(operation: string): ReadonlySet<string> | null {
  const own = PRODUCTION_OPERATIONS[operation] ?? INTERFACE_OPERATIONS[operation];
  const link = LINK_PARAMS[operation];
  if (own === undefined && link === undefined) return null;
  const common = operation.startsWith("GET ") ? (isRead(operation) ? READ_PARAMS : LIST_PARAMS) : READ_PARAMS;
  return new Set([...(own === undefined ? [] : common), ...(own ?? []), ...(link ?? [])]);
}

/** Whether `param` is one an operation takes, patterns included. */
export function takesParam(operation: string, param: string): boolean {
  if (publishedParams(operation)?.has(param)) return true;
  return INTERFACE_PARAM_PATTERNS[operation]?.test(param) ?? false;
}
