import { HttpError, type DirectoryRequest, type DirectoryResponse, type Handler } from "../http/router.js";

/**
 * Conventions shared by every legacy endpoint: API-key authentication, the legacy error body
 * `{status, message}` (docs/interface.md#legacy-errors), integer ids and query parsing. Every parser throws an
 * `HttpError` with a message that names the parameter, so a handler never answers a bad request
 * with partial data.
 */

/** The keys the in-process service accepts (the demo key of docs/decisions.md#test-and-demo-hooks). */
export const API_KEYS: ReadonlySet<string> = new Set(["demo-api-key"]);

const AUTH_PATTERN = /^service\s+application=(\S+)$/i;

export function legacyError(status: number, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, { status, message, ...extra });
}

export function badRequest(message: string): HttpError {
  return legacyError(400, message);
}

export function notFound(message: string): HttpError {
  return legacyError(404, message);
}

export function ok(body: unknown): DirectoryResponse {
  return { status: 200, body };
}

/** Wraps a handler so that it only runs for a request carrying a known API key. */
export function withApiKey(handler: Handler): Handler {
  return (req) => {
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === "") {
      throw legacyError(401, "Missing Authorization header: expected `service application=<API_KEY>`.");
    }
    const match = AUTH_PATTERN.exec(header.trim());
    if (!match) throw legacyError(401, "Malformed Authorization header: expected `service application=<API_KEY>`.");
    if (!API_KEYS.has(match[1]!)) throw legacyError(401, "Unknown API key.");
    return handler(req);
  };
}

/**
 * The handler of a route to one resource (`.../{id}`): the API key, only the `allowed` query
 * parameters, an integer id >= 1; `handle` gets the id.
 */
export function resourceRoute(allowed: readonly string[], handle: (id: number, req: DirectoryRequest) => DirectoryResponse): Handler {
  return withApiKey((req) => {
    rejectUnknownParams(req.query, allowed);
    return handle(pathId(req), req);
  });
}

/** The resource, or a 404 `<What> <id> does not exist.` */
export function existing<T>(item: T | undefined, what: string, id: number): T {
  if (item === undefined) throw notFound(`${what} ${id} does not exist.`);
  return item;
}

/** Rejects query parameters the endpoint does not know, so that a typo is not silently ignored. */
export function rejectUnknownParams(query: URLSearchParams, allowed: readonly string[]): void {
  for (const name of new Set(query.keys())) {
    if (!allowed.includes(name)) {
      throw badRequest(
        `Unknown query parameter '${name}'. ${allowed.length > 0 ? `Allowed: ${allowed.join(", ")}.` : "This endpoint takes none."}`,
      );
    }
  }
}

/** The single value of a query parameter; a repeated parameter is ambiguous. */
export function singleParam(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw badRequest(`Query parameter '${name}' must be given once.`);
  return values[0];
}

const INTEGER = /^\d{1,15}$/;

/** A strictly positive integer written in decimal, as every legacy id is. */
export function parseId(raw: string, name: string): number {
  const value = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw badRequest(`'${name}' must be an integer >= 1, got '${raw}'.`);
  }
  return value;
}

/** The `{id}` path parameter of a single-resource route. */
export function pathId(req: DirectoryRequest, name = "id"): number {
  return parseId(req.params[name] ?? "", name);
}

/** An integer within [min, max]. */
export function parseBoundedInt(raw: string, name: string, min: number, max: number): number {
  const value = /^-?\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badRequest(`'${name}' must be an integer from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

/** How many ids an id-list parameter takes at most (docs/interface.md#legacy-conventions). */
export const MAX_IDS = 100;

/** A comma-separated list of ids >= 1, at most `max` entries, duplicates removed. */
export function parseIdList(raw: string, name: string, max = MAX_IDS): number[] {
  const parts = raw.split(",").map((part) => part.trim());
  if (parts.length > max) throw badRequest(`'${name}' accepts at most ${max} values, got ${parts.length}.`);
  return [...new Set(parts.map((part) => parseId(part, name)))];
}

export function parseBoolean(raw: string, name: string): boolean {
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badRequest(`'${name}' must be true or false, got '${raw}'.`);
}

/** `fields.root=count`, the only allowed value of `fields.root`. */
export function wantsCount(query: URLSearchParams): boolean {
  const raw = singleParam(query, "fields.root");
  if (raw === undefined) return false;
  if (raw !== "count") throw badRequest(`'fields.root' only accepts 'count', got '${raw}'.`);
  return true;
}

/**
 * Legacy date-times carry no offset (docs/interface.md#legacy-conventions): a current-API UTC timestamp
 * `2024-03-01T08:00:00.000Z` becomes `2024-03-01T08:00:00`, a date becomes its midnight.
 */
export function localDateTime(value: string): string;
export function localDateTime(value: string | null): string | null;
export function localDateTime(value: string | null): string | null {
  if (value === null) return null;
  if (value.length === 10) return `${value}T00:00:00`;
  return value.slice(0, 19);
}

/** The moment of a legacy write, on the company's calendar: the service's `today` at the current UTC time. */
export function nowOn(today: string): string {
  return `${today}T${new Date().toISOString().slice(11, 19)}`;
}

/** A JSON object body (not an array, not null), or a 400. */
export function objectBody(req: DirectoryRequest): Record<string, unknown> {
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}
