import type { FieldRule, FieldRules } from "../../platform/field-rules.js";

/**
 * The legacy-time subgraph's field rules (`SubgraphModule.fieldRules`), checked on the whole
 * operation before it starts by the subgraph and by the gateway (`schema/field-checks.json`, so
 * that the people fetch before them is not spent), and again by the resolvers. The range of
 * `Employee.timeEntries` is not bounded in length: a connection (`timeEntries`,
 * `Employee.timeEntryConnection`) reads any range page by page, and the list is bounded by the
 * number of entries it answers instead (its resolver).
 */

/** A time-entry filter takes one range at most: both are the REST `startsAt`. */
const ONE_START_RANGE: FieldRule = { rule: "exclusive", paths: ["filter.startsOn", "filter.startsAt"], because: "both bound the entries' start" };

/** modifiedSince, lastUpdatedSince's deprecated name (issue 35), and lastUpdatedSince: one of them */
const RENAMED_SINCE = "modifiedSince is the deprecated name of lastUpdatedSince: give only lastUpdatedSince";
const ONE_SINCE: FieldRule = { rule: "exclusive", paths: ["filter.modifiedSince", "filter.lastUpdatedSince"], because: RENAMED_SINCE };

export const legacyTimeFieldRules = {
  "Employee.timeEntries": [{ rule: "ordered", from: "from", to: "to" }, { rule: "exclusive", paths: ["modifiedSince", "lastUpdatedSince"], because: RENAMED_SINCE }],
  "Employee.timeEntryConnection": [ONE_START_RANGE, ONE_SINCE],
  "Query.timeEntries": [{ rule: "nonEmpty", path: "filter.ownerIds", naming: "employee" }, ONE_START_RANGE, ONE_SINCE],
  // the legacy `establishmentId` filter the edge sets itself (connections.ts)
  "BusinessEstablishment.workContracts": [{ rule: "ownFilter", field: "establishmentIds" }],
} satisfies FieldRules;
