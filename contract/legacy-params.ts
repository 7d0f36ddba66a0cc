/**
 * The legacy API's operations, as the interface specifies them (docs/interface.md#legacy-api):
 * `"<METHOD> <path>"` -> the query parameters it names, or null where it leaves their names unsaid
 * (the twin's own checks of the route then apply). Legacy paths compare case-insensitively.
 */
export const LEGACY_OPERATIONS: Readonly<Record<string, readonly string[] | null>> = {
  "GET /api/v3/users/{id}": ["fields"],
  "PUT /api/v3/users/{id}": ["fields"],
  "GET /api/v3/departments/{id}": [],
  "GET /directory/api/4.0/work-contracts/{id}": [],
  "GET /directory/api/4.0/work-contracts": ["page", "limit", "fields.root", "ownerId", "isApplicable", "isArchived", "typeId", "establishmentId"],
  // ids, legal units, a name search, isArchived, page, limit and the links-and-count switch, their names unsaid
  "GET /organization/structure/api/establishments": null,
  "PUT /api/v3/timeentries/{id}": [],
  "PUT /api/v3/axisSections/{id}": [],
  // only referenced by address: a work contract's reference lists
  "GET /directory/api/work-contract-hiring-types": null,
  "GET /directory/api/work-contract-termination-reasons": null,
  "GET /directory/api/work-contract-temporary-contract-grounds": null,
};

/**
 * Legacy reads the facade relies on that the interface does not show (the users of many ids at once
 * with `id=`, `formerEmployees` and `paging`, the legacy batch read of docs/interface.md; the
 * timesheet screen reads a week's time entries and timesheets, one entry before writing it, and
 * the axis sections of the entries): the twin's parameter names, still to be confirmed against
 * the production service. Listed here so that the contract test fails on any other undocumented
 * request.
 */
export const LEGACY_READS_UNSHOWN: Readonly<Record<string, null>> = {
  "GET /api/v3/users": null,
  "GET /api/v3/timmitimesheets": null,
  "GET /api/v3/timeentries": null,
  "GET /api/v3/timeentries/{id}": null,
  "GET /api/v3/axisSections": null,
};
