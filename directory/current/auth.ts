import { timingSafeEqual } from "node:crypto";
import type { Id } from "../data/model.js";
import { HttpError, type DirectoryRequest, type Router } from "../http/router.js";
import { problemBody } from "../http/errors.js";
import type { CurrentContext } from "./resource.js";
import type { Caller, TokenStore } from "./tokens.js";

/**
 * OAuth 2.0 client credentials for the current API (docs/decisions.md#token-endpoint): the token endpoint
 * (its tokens in tokens.ts) and `authenticate`, which every `/service-api` handler calls first.
 *
 * Order of checks of a current-API request: the bearer token (401), then `Api-Version` (400), then
 * the scope (403). Parameters (400), existence and visibility (404) and preconditions (412/304)
 * come after, in the engine.
 */

export const API_VERSION = "2024-11-01";
const MAX_API_VERSION_LENGTH = 10;

/**
 * The scope names of docs/interface.md, `departments` (docs/decisions.md: departments reads), and those the
 * production service has for job qualifications (with professions), webhook endpoints and webhook
 * deliveries (with their attempts).
 */
export const SCOPE_NAMES = [
  "employee-attributes",
  "employees",
  "employee-personal-records",
  "probationary-periods",
  "employment-templates",
  "occupation-categories",
  "job-positions",
  "employments",
  "legal-entities",
  "business-establishments",
  "taxonomies",
  "departments",
  "job-qualifications",
  "webhook-endpoints",
  "webhook-deliveries",
] as const;

export const ALL_SCOPES: readonly string[] = [
  ...SCOPE_NAMES.flatMap((name) => [`${name}.readonly`, `${name}.readwrite`]),
  // events are only read
  "events.readonly",
];

/** An OAuth client the token endpoint knows. */
export interface DirectoryClient {
  secret: string;
  /** the scopes it may be granted, all of them when a token request names none */
  scopes: readonly string[];
  /** the business establishments whose employees it sees; null: every establishment */
  visibleEstablishmentIds: readonly Id[] | null;
}

/** The demo clients of docs/decisions.md#test-and-demo-hooks. */
export const DEMO_CLIENTS: Readonly<Record<string, DirectoryClient>> = {
  "demo-client": { secret: "demo-secret", scopes: ALL_SCOPES, visibleEstablishmentIds: null },
  "demo-limited": {
    secret: "demo-secret",
    scopes: ["employees.readonly", "job-positions.readonly", "employments.readonly", "departments.readonly"],
    visibleEstablishmentIds: ["1"],
  },
};

/**
 * The demo clients plus `extra` ones (an extra client of the same id replaces a demo one): a
 * tester can then combine scopes and establishments that no demo client has, through the same
 * token endpoint and the same checks. Bad definitions throw at start-up, naming the client.
 */
export function clientRegistry(extra: Readonly<Record<string, DirectoryClient>> = {}): ReadonlyMap<string, DirectoryClient> {
  const clients = new Map(Object.entries(DEMO_CLIENTS));
  for (const [id, client] of Object.entries(extra)) {
    const where = `directory client "${id}"`;
    if (id === "" || /[\s:]/.test(id)) throw new RangeError(`${where}: the id must be non-empty, without spaces or colons`);
    if (typeof client?.secret !== "string" || client.secret === "") throw new TypeError(`${where}: secret must be a non-empty string`);
    if (!Array.isArray(client.scopes)) throw new TypeError(`${where}: scopes must be an array`);
    const unknown = client.scopes.filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length > 0) throw new RangeError(`${where}: unknown scopes ${unknown.join(" ")}`);
    const visible = client.visibleEstablishmentIds;
    if (visible !== null && (!Array.isArray(visible) || visible.some((v) => typeof v !== "string" || v === ""))) {
      throw new TypeError(`${where}: visibleEstablishmentIds must be null or an array of establishment ids`);
    }
    clients.set(id, { secret: client.secret, scopes: [...client.scopes], visibleEstablishmentIds: visible === null ? null : [...visible] });
  }
  return clients;
}

export function hasScope(caller: Caller, scope: string, access: "read" | "write"): boolean {
  return caller.scopes.has(`${scope}.readwrite`) || (access === "read" && caller.scopes.has(`${scope}.readonly`));
}

const REALM = 'realm="service-api"';

/**
 * The caller of a current-API request, or an HttpError: 401 without a valid bearer token, 400
 * for a missing or wrong `Api-Version`, 403 when the token lacks the scope.
 */
export function authenticate(req: DirectoryRequest, ctx: CurrentContext, scope: string, access: "read" | "write"): Caller {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === "") {
    throw new HttpError(401, problemBody(401, "Unauthorized", "an access token is required: Authorization: Bearer <token>"), {
      "www-authenticate": `Bearer ${REALM}`,
    });
  }
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) throw invalidToken("the Authorization header must be Bearer <token>", "invalid_request");
  const caller = ctx.service.tokens.resolve(match[1]!);
  if (caller === null) throw invalidToken("the access token is not valid", "invalid_token");
  if (caller === "expired") throw invalidToken("the access token has expired", "invalid_token");

  checkApiVersion(req);

  if (!hasScope(caller, scope, access)) {
    const needed = access === "read" ? `${scope}.readonly ${scope}.readwrite` : `${scope}.readwrite`;
    throw new HttpError(
      403,
      problemBody(403, "Forbidden", `the access token lacks the scope ${access === "read" ? `${scope}.readonly (or .readwrite)` : `${scope}.readwrite`}`),
      { "www-authenticate": `Bearer ${REALM}, error="insufficient_scope", scope="${needed}"` },
    );
  }
  return caller;
}

function invalidToken(detail: string, error: string): HttpError {
  return new HttpError(401, problemBody(401, "Unauthorized", detail), {
    "www-authenticate": `Bearer ${REALM}, error="${error}", error_description="${detail}"`,
  });
}

function checkApiVersion(req: DirectoryRequest): void {
  const raw = req.headers["api-version"];
  const value = Array.isArray(raw) ? raw.join(", ") : raw;
  let message: string | null = null;
  if (value === undefined || value === "") message = `the header is required; the only version is ${API_VERSION}`;
  else if (value.length > MAX_API_VERSION_LENGTH) message = `must be at most ${MAX_API_VERSION_LENGTH} characters`;
  else if (value !== API_VERSION) message = `unsupported version "${value}"; the only version is ${API_VERSION}`;
  if (message !== null) {
    throw new HttpError(400, problemBody(400, "Bad Request", "missing or unsupported Api-Version", { "Api-Version": [message] }));
  }
}

/** `POST /connect/token`: the client-credentials grant (RFC 6749 §4.4), OAuth error bodies. */
export function registerTokenEndpoint(router: Router, tokens: TokenStore, clients: ReadonlyMap<string, DirectoryClient>): void {
  router.post("/connect/token", (req) => {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      throw oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded");
    }
    const form = (req.body ?? {}) as Record<string, string>;

    const basic = parseBasic(req.headers.authorization);
    if (basic === "malformed") throw oauthError(401, "invalid_client", "malformed Basic credentials", true);
    const clientId = basic?.id ?? form.client_id;
    const clientSecret = basic?.secret ?? form.client_secret;
    if (!clientId || clientSecret === undefined) {
      throw oauthError(401, "invalid_client", "client_id and client_secret are required", basic !== null);
    }
    const client = clients.get(clientId);
    if (!client || !sameSecret(clientSecret, client.secret)) {
      throw oauthError(401, "invalid_client", "unknown client or wrong secret", basic !== null);
    }

    if (!form.grant_type) throw oauthError(400, "invalid_request", "grant_type is required");
    if (form.grant_type !== "client_credentials") {
      throw oauthError(400, "unsupported_grant_type", "only the client_credentials grant is supported");
    }

    const requested = (form.scope ?? "").split(" ").filter((s) => s.length > 0);
    const refused = requested.filter((s) => !client.scopes.includes(s));
    if (refused.length > 0) throw oauthError(400, "invalid_scope", `scope not granted to this client: ${refused.join(" ")}`);
    const granted = requested.length > 0 ? [...new Set(requested)] : [...client.scopes];

    const accessToken = tokens.issue({
      clientId,
      scopes: new Set(granted),
      visibleEstablishmentIds: client.visibleEstablishmentIds === null ? null : new Set(client.visibleEstablishmentIds),
    });
    return {
      status: 200,
      headers: { "cache-control": "no-store", pragma: "no-cache" },
      body: {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: Math.round(tokens.lifetimeSeconds),
        scope: granted.join(" "),
      },
    };
  });
}

function oauthError(status: number, error: string, description: string, basicChallenge = false): HttpError {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (basicChallenge) headers["www-authenticate"] = 'Basic realm="connect"';
  return new HttpError(status, { error, error_description: description }, headers);
}

/** client_secret_basic (RFC 6749 §2.3.1); null when the request does not use it. */
function parseBasic(header: string | undefined): { id: string; secret: string } | "malformed" | null {
  if (!header || !/^Basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return "malformed";
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
