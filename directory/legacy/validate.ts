import { parseIsoDate } from "../data/calendar.js";
import { badRequest } from "./http.js";

/**
 * Validation of legacy request bodies. A PUT checks every field before it applies any of them
 * (a bad request changes nothing), so checks collect their findings in `Problems` and the
 * handler throws once, with every problem named in one message.
 */
export class Problems {
  private readonly messages: string[] = [];

  add(message: string): void {
    this.messages.push(message);
  }

  get count(): number {
    return this.messages.length;
  }

  /** A 400 naming every problem, e.g. `Invalid time entry: duration must be ...` */
  throwIfAny(what = "request body"): void {
    if (this.messages.length === 0) return;
    throw badRequest(`Invalid ${what}: ${this.messages.join(" ")}`);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

export function isId(value: unknown): value is number {
  return isInteger(value) && value >= 1;
}

/** A date-time without offset, split into its calendar day and the seconds since midnight. */
export interface LocalDateTime {
  /** `YYYY-MM-DD` */
  date: string;
  /** days since 1970-01-01 */
  day: number;
  /** seconds after midnight, 0..86399 */
  seconds: number;
  /** normalised `YYYY-MM-DDTHH:mm:ss` */
  text: string;
}

export type LocalDateTimeResult = { ok: true; value: LocalDateTime } | { ok: false; reason: "offset" | "format" };

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,7})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses a legacy date-time. `dateOnly` allows a bare `YYYY-MM-DD` (read as its midnight).
 * An offset (`Z`, `+02:00`) is reported apart from other format errors: for time entries it is a
 * rule of its own (rule 2).
 */
export function parseLocalDateTime(raw: unknown, dateOnly = false): LocalDateTimeResult {
  if (typeof raw !== "string") return { ok: false, reason: "format" };
  const match = DATE_TIME.exec(raw);
  if (!match) return { ok: false, reason: "format" };
  const [, date, hh, mm, ss, offset] = match;
  if (hh === undefined && (!dateOnly || offset !== undefined)) return { ok: false, reason: "format" };
  let day: number;
  try {
    day = parseIsoDate(date!);
  } catch {
    return { ok: false, reason: "format" };
  }
  const [h, m, s] = [Number(hh ?? 0), Number(mm ?? 0), Number(ss ?? 0)];
  if (h > 23 || m > 59 || s > 59) return { ok: false, reason: "format" };
  if (offset !== undefined) return { ok: false, reason: "offset" };
  const seconds = h * 3600 + m * 60 + s;
  return { ok: true, value: { date: date!, day, seconds, text: `${date}T${two(h)}:${two(m)}:${two(s)}` } };
}

export function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * A string field: `min`/`max` length, and `nullable` allows null. Returns the value, or
 * `undefined` after recording a problem.
 */
export function checkString(
  problems: Problems,
  name: string,
  value: unknown,
  { min = 1, max = 255, nullable = false }: { min?: number; max?: number; nullable?: boolean } = {},
): string | null | undefined {
  if (value === null && nullable) return null;
  if (typeof value !== "string") {
    problems.add(`${name} must be a string${nullable ? " or null" : ""}.`);
    return undefined;
  }
  if (value.length < min || value.length > max) {
    problems.add(`${name} must be ${min} to ${max} characters long.`);
    return undefined;
  }
  return value;
}

/** An id field (integer >= 1), optionally nullable. */
export function checkId(problems: Problems, name: string, value: unknown, nullable = false): number | null | undefined {
  if (value === null && nullable) return null;
  if (!isId(value)) {
    problems.add(`${name} must be an integer >= 1${nullable ? " or null" : ""}.`);
    return undefined;
  }
  return value;
}

/**
 * Fields of a body that the resource does not know are a 400; read-only ones are ignored (a
 * client sends back the resource as it read it).
 */
export function checkFieldNames(
  problems: Problems,
  body: Record<string, unknown>,
  writable: ReadonlySet<string>,
  readOnly: ReadonlySet<string>,
  isWritable: (name: string) => boolean = () => false,
): void {
  for (const name of Object.keys(body)) {
    if (writable.has(name) || isWritable(name) || readOnly.has(name)) continue;
    problems.add(`Unknown field '${name}'.`);
  }
}

/** The body's `id`, when present, must be the id of the path. */
export function checkBodyId(problems: Problems, body: Record<string, unknown>, id: number): void {
  if ("id" in body && body.id !== id) problems.add(`id ${JSON.stringify(body.id)} differs from the id ${id} of the path.`);
}
