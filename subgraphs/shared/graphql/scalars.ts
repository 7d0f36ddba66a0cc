import { GraphQLScalarType, Kind, type ValueNode } from "graphql";
import { GraphQLDateTime, GraphQLEmailAddress, GraphQLJSON, GraphQLLocalDateTime, GraphQLURL } from "graphql-scalars";
import { isIsoDate } from "../../../platform/user-input.js";

/**
 * The scalars of docs/graph.md#scalars. `Date` keeps the REST interface's `YYYY-MM-DD` strings end to end
 * (graphql-scalars' own Date turns arguments into JS Dates, which invites time-zone slips when a
 * date is sent back to the upstream).
 */

function toDate(value: unknown): string {
  if (typeof value === "string" && isIsoDate(value)) return value;
  throw new TypeError(`Date must be a calendar date as YYYY-MM-DD, got ${JSON.stringify(value)}`);
}

/**
 * A string argument reaches the operation-wide check (input-checks.ts), which refuses a date that
 * is not a calendar day as BAD_USER_INPUT naming the argument, before any upstream call. Refused
 * here, during validation, it would be an HTTP 400 that a gateway reports as its own failure.
 */
function toDateInput(value: unknown): string {
  if (typeof value === "string" && value.length <= 64) return value;
  throw new TypeError(`Date must be a calendar date as YYYY-MM-DD, got ${JSON.stringify(value)?.slice(0, 70)}`);
}

export const DateScalar = new GraphQLScalarType({
  name: "Date",
  description: "A calendar date without time zone, as YYYY-MM-DD (RFC 3339 full-date).",
  specifiedByURL: "https://www.rfc-editor.org/rfc/rfc3339#section-5.6",
  serialize: toDate,
  parseValue: toDateInput,
  parseLiteral(ast: ValueNode) {
    if (ast.kind !== Kind.STRING) throw new TypeError("Date must be a string as YYYY-MM-DD");
    return toDateInput(ast.value);
  },
});

export const DateTimeScalar = GraphQLDateTime;
/**
 * graphql-scalars' `LocalDateTime`, declaring the format it carries (`@specifiedBy`): the legacy
 * API's date-times, an RFC 3339 date-time without its offset (docs/interface.md#legacy-conventions),
 * which the OpenAPI format registry names `date-time-local`. The operation-wide check
 * (input-checks.ts) applies that format by this URL; the scalar itself lets an offset through.
 */
export const LocalDateTimeScalar = new GraphQLScalarType({
  ...GraphQLLocalDateTime.toConfig(),
  specifiedByURL: "https://spec.openapis.org/registry/format/date-time-local",
});
export const JSONScalar = GraphQLJSON;
export const URLScalar = GraphQLURL;
export const EmailAddressScalar = GraphQLEmailAddress;
