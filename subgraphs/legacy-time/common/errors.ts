import { GraphQLError } from "graphql";
import { Field, Int, ObjectType } from "type-graphql";
import { MutationError } from "../../shared/graphql/index.js";
import { UpstreamError } from "../../shared/upstream/index.js";
import { ErrorCode, codedError } from "../../../platform/error-codes.js";

/**
 * The error members of the mutation payload unions (docs/graph.md#mutations: a validation failure is data, not
 * an exception). Only failures the caller can fix by changing the input become data; a missing
 * target is a NOT_FOUND GraphQL error and any other upstream failure keeps its code (docs/graph.md#error-codes).
 */

export { InvalidInputError, invalidInput } from "../../shared/graphql/index.js";

@ObjectType({
  implements: MutationError,
  description: "A time-entry validation rule (1 to 7 of the legacy interface) refused the change. Nothing was written.",
})
export class TimeEntryValidationError extends MutationError {
  @Field(() => Int, {
    description:
      "1 locked timesheet (submitted or approved), 2 startsAt with a UTC offset, 3 duration over 24h, 4 entry spanning two days, " +
      "5 axis sections not matching the timesheet's mode, 6 inactive axis section, 7 axis sections not forming a parent-child chain.",
  })
  rule!: number;
}

export function notFound(what: string, id: string): GraphQLError {
  return codedError(ErrorCode.NOT_FOUND, `${what} ${id} does not exist.`);
}

/** A 400 of the legacy API (a refused body), as opposed to any other failure. */
export function isRefusal(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && err.status === 400;
}

/**
 * The input fields an upstream refusal names. The legacy API answers `{status, message}` and
 * starts each problem of its message with the REST field name ("Invalid request body: mail must
 * be an email address."); the names found there are mapped back to the mutation's input names.
 * When no problem starts with a known name, a name anywhere in the message counts.
 */
export function fieldsNamedIn(message: string, inputNameOf: Readonly<Record<string, string>>): string[] {
  const find = (before: string) => {
    const found = new Set<string>();
    for (const [restName, inputName] of Object.entries(inputNameOf)) {
      if (new RegExp(`${before}${escape(restName)}(?=[^A-Za-z0-9_]|$)`).test(message)) found.add(inputName);
    }
    return [...found];
  };
  const leading = find(`(?:^|[:.]\\s+|')`);
  return leading.length > 0 ? leading : find("(?:^|[^A-Za-z0-9_])");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The legacy API's message, without the wrapper the directory service puts around it. */
export function refusalMessage(err: UpstreamError): string {
  return err.detail ?? err.message;
}
