import { GraphQLError } from "graphql";
import { Directive, Field, InterfaceType, ObjectType } from "type-graphql";
import type { Logger } from "../../../platform/log.js";
import { UpstreamError, type UpstreamSession } from "../upstream/index.js";
import { ErrorCode } from "../../../platform/error-codes.js";

/**
 * What every write of the facade shares, whichever subgraph serves it:
 * - `MutationError`, the interface of every error member of a mutation's result union, so that a
 *   client reads any refusal with one fragment (`... on MutationError { message fields }`);
 * - the audit line each write logs.
 */

@InterfaceType("MutationError", {
  description:
    "A refusal returned as data by a mutation: nothing was written. Every error member of a mutation's result union implements " +
    "it, so one fragment (`... on MutationError { message fields }`) reads them all.",
})
export abstract class MutationError {
  @Field(() => String, { description: "What is wrong, in English, written for a person; safe to show." })
  message!: string;

  @Field(() => [String], {
    description:
      "The input fields at fault, as paths below the mutation's `input` argument (`duration`, `names`) or the argument's own " +
      "name when the mutation has no input object (`webhookEndpointId`); empty when no single field is at fault.",
  })
  fields!: string[];
}

@ObjectType({
  implements: MutationError,
  description: "The input was refused: a value is malformed, unknown or inconsistent. Nothing was written.",
})
@Directive("@shareable")
export class InvalidInputError extends MutationError {}

export function invalidInput(message: string, fields: string[]): InvalidInputError {
  return Object.assign(new InvalidInputError(), { message, fields });
}

/** What a write is about, for its audit line. */
export interface WriteTarget {
  /** the mutation's field name */
  operation: string;
  /** the graph type of the target (`TimeEntry`, `AxisSection`, `LegacyUser`, `WebhookEndpoint`) */
  type: string;
  id: string;
  /** names of the input fields the caller gave (never their values) */
  fields: string[];
}

interface WriteContext {
  upstream: UpstreamSession;
  logger?: Logger;
}

/**
 * Runs a write and logs one audit line at `info` about it: `{audit: "write", operation,
 * target: {type, id}, fields, outcome, code?, caller}`. `outcome` is `applied`, `refused` (a
 * MutationError returned as data), `error` (a GraphQL error: `code` says which) or `unknown`
 * (WRITE_OUTCOME_UNKNOWN). `caller` is the session's pseudonym; no value of the input, no token
 * and no upstream body is logged.
 */
export async function audited<T>(ctx: WriteContext, target: WriteTarget, write: () => Promise<T>): Promise<T> {
  const line = (outcome: string, code?: string) =>
    ctx.logger?.info("write", {
      audit: "write",
      operation: target.operation,
      target: { type: target.type, id: target.id.slice(0, 40) },
      fields: [...target.fields].sort(),
      outcome,
      ...(code !== undefined ? { code } : {}),
      caller: ctx.upstream.caller,
    });
  let result: T;
  try {
    result = await write();
  } catch (err) {
    const code = err instanceof UpstreamError ? err.code : err instanceof GraphQLError ? String(err.extensions?.code ?? ErrorCode.INTERNAL_SERVER_ERROR) : ErrorCode.INTERNAL_SERVER_ERROR;
    line(code === ErrorCode.WRITE_OUTCOME_UNKNOWN ? "unknown" : "error", code);
    throw err;
  }
  line(result instanceof MutationError ? "refused" : "applied", result instanceof MutationError ? result.constructor.name : undefined);
  return result;
}

/** The names of the fields an input object gives (undefined ones left out). */
export function givenFields(input: object): string[] {
  return Object.entries(input)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
}
