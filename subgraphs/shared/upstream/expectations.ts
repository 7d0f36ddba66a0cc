import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Logger } from "../../../platform/log.js";
import { UpstreamError } from "./errors.js";
import { COLLECTIONS, RESOURCE_SHAPES } from "../../../contract/rest-shapes.js";
import { ErrorCode } from "../../../platform/error-codes.js";

/**
 * The facade's expectations of the upstream's current API: the members of each representation
 * that contract/rest-shapes.ts declares required. An answer that lacks one is refused at once, with an error and
 * a log line that name the missing member, rather than failing later on an `undefined` deep in a
 * resolver. Only missing members count here: an upstream that adds members or enum values, or
 * sends another type, is left to the resolvers (the conformance test holds the in-process
 * service to the full shapes).
 */

// made when first needed: a bad LOG_LEVEL must be reported by the process's own check, not
// fail the import of this module
let logger: Logger | null = null;

/** Where the expectation log lines go (a subgraph passes its own logger; tests collect lines). */
export function useExpectationLogger(next: Logger): void {
  logger = next;
}

const checks = new Map<string, TypeCheck<TSchema>>();

function checkFor(type: string): TypeCheck<TSchema> | undefined {
  let check = checks.get(type);
  if (!check) {
    const shape = RESOURCE_SHAPES[type];
    if (!shape) return undefined;
    checks.set(type, (check = TypeCompiler.Compile(shape)));
  }
  return check;
}

/** The item type of a current-API path (`/service-api/employees[/{id}]`); undefined: not declared. */
function typeOfPath(path: string): { type: string; single: boolean } | undefined {
  const [prefix, collection, id, ...rest] = path.split("/").filter(Boolean);
  if (prefix !== "service-api" || collection === undefined || rest.length > 0) return undefined;
  const type = COLLECTIONS[collection];
  return type === undefined ? undefined : { type, single: id !== undefined };
}

/** The required members missing from `value`, as JSON pointers (`/applicableEmployment`). */
export function missingMembers(type: string, value: unknown): string[] {
  const check = checkFor(type);
  if (!check) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["/"];
  if (check.Check(value)) return [];
  const missing = new Set<string>();
  for (const error of check.Errors(value)) {
    if (error.type === ValueErrorType.ObjectRequiredProperty) missing.add(error.path);
  }
  return [...missing];
}

/** A single read's answer: refused when it lacks a member the facade relies on. */
export function expectRepresentation<T>(path: string, body: T): T {
  const target = typeOfPath(path);
  if (target?.single && body !== null && body !== undefined) refuseIfMissing(path, target.type, missingMembers(target.type, body));
  return body;
}

/** A list page's items: refused at the first item that lacks a member the facade relies on. */
export function expectItems(path: string, items: readonly unknown[]): void {
  const target = typeOfPath(path);
  if (!target || target.single) return;
  for (let i = 0; i < items.length; i++) {
    const missing = missingMembers(target.type, items[i]);
    if (missing.length > 0) refuseIfMissing(path, target.type, missing.map((m) => `/items/${i}${m === "/" ? "" : m}`));
  }
}

const MAX_NAMED = 10;

function refuseIfMissing(path: string, type: string, missing: string[]): void {
  if (missing.length === 0) return;
  const named = missing.slice(0, MAX_NAMED).map((m) => `"${m}"`).join(", ") + (missing.length > MAX_NAMED ? ", ..." : "");
  logger ??= new Logger("upstream");
  logger.warn("upstream answer lacks members the facade relies on", { method: "GET", path, type, missing: missing.slice(0, MAX_NAMED) });
  throw new UpstreamError({
    method: "GET",
    path,
    status: 200,
    reason: "http",
    summary: "OK",
    detail: `the ${type} representation lacks ${named}, which the facade relies on`,
    code: ErrorCode.UPSTREAM_UNAVAILABLE,
  });
}
