import { GraphQLError } from "graphql";
import { Directive, Field, InterfaceType, ObjectType } from "type-graphql";
import type { Logger } from "../../../platform/log.js";
import { UpstreamError, type UpstreamSession } from "../upstream/index.js";
import { ErrorCode } from "../../../platform/error-codes.js";

/**
 * What every write of the facade shares, whichever subgraph serves it:
 * - `MutationError`, the interface of every error member of a mutation's result union, so that a
 *   client reads any refusal with one fragment (`... on MutationError { message fields }`);
 * - the refusals every mutation's union holds (`WRITE_REFUSALS`): an expected refusal of a write
 *   (invalid input, unknown record, forbidden, conflict) is data, never a top-level error
 *   (docs/graph.md#mutations); only unexpected failures (upstream down, deadline, an unknown
 *   outcome) stay errors;
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

@ObjectType({
  implements: MutationError,
  description: "The record the mutation names does not exist (or its id cannot name one). Nothing was written.",
})
@Directive("@shareable")
export class NotFoundError extends MutationError {}

@ObjectType({
  implements: MutationError,
  description:
    "The caller may not make this change: a scope it lacks, an employee it may not see, or writes turned off for it. Nothing was written.",
})
@Directive("@shareable")
export class ForbiddenError extends MutationError {}

@ObjectType({
  implements: MutationError,
  description:
    "The record is being changed by another write, or changed since it was read. Nothing was written: read it again and retry.",
})
@Directive("@shareable")
export class ConflictError extends MutationError {
  @Field(() => Boolean, {
    description:
      "True when the same mutation may simply be sent again (another write held the record a moment longer than this one could " +
      "wait); false when the record changed since it was read: read it again, and decide on the new value before writing.",
  })
  retryable!: boolean;
}

/** The refusals every mutation's result union holds besides its own (TimeEntryValidationError). */
export const WRITE_REFUSALS = [InvalidInputError, NotFoundError, ForbiddenError, ConflictError] as const;

/** A refusal of a write returned as data by `audited` (InvalidInputError is the resolvers' own). */
export type WriteRefusal = NotFoundError | ForbiddenError | ConflictError;

/**
 * The `resolveType` of a mutation's result union: a refusal's own type, else `success`. Types are
 * named here, not read from class names, which a bundler may rename.
 */
export function mutationResultType(success: string, own: ReadonlyArray<readonly [abstract new () => MutationError, string]> = []) {
  const named: ReadonlyArray<readonly [abstract new () => MutationError, string]> = [
    ...own,
    [InvalidInputError, "InvalidInputError"],
    [NotFoundError, "NotFoundError"],
    [ForbiddenError, "ForbiddenError"],
    [ConflictError, "ConflictError"],
  ];
  return (value: unknown): string => named.find(([type]) => value instanceof type)?.[1] ?? success;
}

const REFUSAL_OF_CODE: Partial<Record<string, new () => WriteRefusal>> = {
  [ErrorCode.NOT_FOUND]: NotFoundError,
  [ErrorCode.FORBIDDEN]: ForbiddenError,
  [ErrorCode.CONFLICT]: ConflictError,
};

/**
 * An expected refusal thrown while writing, as data: BAD_USER_INPUT (an InvalidInputError), NOT_FOUND (the facade's own or the
 * upstream's 404), FORBIDDEN (the facade's checks or the upstream's 403) and CONFLICT (a record
 * lease still held, retryable; the upstream's 409 or 412, not). Anything else (upstream unavailable, deadline,
 * WRITE_OUTCOME_UNKNOWN, UNAUTHENTICATED) is null: it stays a top-level error.
 */
export function refusalAsData(err: unknown, target: Pick<WriteTarget, "idArgument">): WriteRefusal | InvalidInputError | null {
  const code = err instanceof UpstreamError ? err.code : err instanceof GraphQLError ? err.extensions?.code : undefined;
  // an argument refused while the mutation runs (the checks before execution answer 400 instead)
  if (code === ErrorCode.BAD_USER_INPUT) {
    const field = err instanceof GraphQLError ? err.extensions?.field : undefined;
    const message = err instanceof UpstreamError ? (err.detail ?? "The directory refused the input.") : (err as GraphQLError).message;
    return invalidInput(message, typeof field === "string" ? [field] : []);
  }
  const Refusal = typeof code === "string" ? REFUSAL_OF_CODE[code] : undefined;
  if (!Refusal) return null;
  // an upstream error's own message names the REST call: its detail, or a sentence of ours
  const message =
    err instanceof UpstreamError ? (err.detail ?? UPSTREAM_REFUSAL[code as string]!) : (err as GraphQLError).message;
  const refusal = Object.assign(new Refusal(), { message, fields: Refusal === NotFoundError ? [target.idArgument ?? "id"] : [] });
  // a conflict of the facade's own (a record lease held past the wait) says it is retryable; the
  // upstream's 409 or 412 is a precondition: the client reads the record again
  if (refusal instanceof ConflictError) refusal.retryable = err instanceof GraphQLError && err.extensions?.retryable === true;
  return refusal;
}

const UPSTREAM_REFUSAL: Record<string, string> = {
  [ErrorCode.NOT_FOUND]: "The record does not exist.",
  [ErrorCode.FORBIDDEN]: "The directory refused this change to the caller.",
  [ErrorCode.CONFLICT]: "The record changed since it was read: read it again and retry.",
};

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
  /** the argument naming the target, which a NotFoundError names (`id` when not given) */
  idArgument?: string;
}

interface WriteContext {
  upstream: UpstreamSession;
  logger?: Logger;
}

/**
 * Runs a write, turns its expected refusals into data (`refusalAsData`), and logs one audit line
 * at `info` about it: `{audit: "write", operation, target: {type, id}, fields, outcome, code?,
 * caller}`. `outcome` is `applied`, `refused` (a MutationError returned as data: `code` names
 * its type), `error` (a GraphQL error: `code` says which) or `unknown` (WRITE_OUTCOME_UNKNOWN).
 * `caller` is the session's pseudonym; no value of the input, no token and no upstream body is
 * logged.
 */
export async function audited<T>(ctx: WriteContext, target: WriteTarget, write: () => Promise<T>): Promise<T | WriteRefusal | InvalidInputError> {
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
    const refusal = refusalAsData(err, target);
    if (refusal) {
      line("refused", refusal.constructor.name);
      return refusal;
    }
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
