import { GraphQLError } from "graphql";
import { ErrorCode } from "./error-codes.js";

/**
 * What a caller may send, and the error of a caller's mistake: free of type-graphql, so that the
 * gateway can run the subgraphs' argument checks (input-checks.ts).
 */

/** The page size of every connection: its default and its maximum. */
export const DEFAULT_FIRST = 25;
export const MAX_FIRST = 100;

/** A list-valued filter carries at most this many values (docs/interface.md#conventions); more is a 400. */
export const MAX_FILTER_VALUES = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date as `YYYY-MM-DD`, a real day. */
export function isIsoDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * A caller's mistake. `http.status` 200 keeps a refusal found before execution (input-checks.ts)
 * an ordinary GraphQL answer that gateways relay as it is (Apollo Server would answer 500); it is
 * not sent to the caller.
 */
export function badUserInput(message: string, field?: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, ...(field ? { field } : {}), http: { status: 200 } } });
}

/** the longest cursor accepted: far above any the subgraphs sign */
export const MAX_CURSOR_LENGTH = 2048;

/** `<payload>.<signature>`, both base64url: what every cursor the subgraphs sign looks like */
const CURSOR_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The refusal of an `after` (or other cursor argument) that is not a cursor of the connection. */
export function notACursor(argument = "after"): GraphQLError {
  return badUserInput(`${argument} is not a cursor of this connection: pass a pageInfo.endCursor as it was received`, argument);
}

/**
 * The payload of a value shaped as a cursor (`<payload>.<signature>`, base64url, at most
 * MAX_CURSOR_LENGTH characters, the payload a JSON object), or null. Anyone can check the shape,
 * without the key that signs cursors: the gateway refuses a malformed cursor before execution
 * with it, and a subgraph checks it before the signature (docs/graph.md#argument-refusals).
 */
export function cursorPayloadOf(raw: string): Record<string, unknown> | null {
  if (raw.length > MAX_CURSOR_LENGTH || !CURSOR_SHAPE.test(raw)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw.slice(0, raw.indexOf(".")), "base64url").toString("utf8"));
  } catch {
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Throws `notACursor` unless `raw` is shaped as a cursor (`cursorPayloadOf`). */
export function checkCursorShape(raw: string, argument = "after"): void {
  if (cursorPayloadOf(raw) === null) throw notACursor(argument);
}
