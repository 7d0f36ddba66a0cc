import type { IncomingMessage, ServerResponse } from "node:http";
import { ConfigError, excerpt } from "../platform/config.js";
import { sendJson } from "../platform/http.js";
import { ErrorCode, errorBody } from "../platform/error-codes.js";
import { REQUEST_ID_HEADER } from "../platform/headers.js";

/**
 * CORS for browser frontends on other origins. A hand-written policy rather than the `cors`
 * middleware, because that one still answers a preflight from a refused origin with 204 and
 * `Access-Control-Allow-Methods`/`-Headers`: here a refused origin gets no CORS header at all.
 *
 * Credentials are refused (no `Access-Control-Allow-Credentials`): callers authenticate with a
 * bearer token they put in the `Authorization` header themselves, which CORS lets through as an
 * allowed request header without the credentials mode; the gateway reads no cookie, and allowing
 * credentialed requests would only let a browser attach cookies of the gateway's site.
 *
 * CSRF prevention is Apollo Server's and stays on: a request a browser would send without a
 * preflight (a GET without `apollo-require-preflight` or `x-apollo-operation-name`, a POST with a
 * form or text content type) is refused whatever its origin.
 */

/** The origins a browser frontend may call the gateway from (GATEWAY_CORS_ORIGINS). */
export interface CorsOrigins {
  /** any `http(s)://localhost`, `127.0.0.1` or `[::1]` origin, any port (the development default) */
  loopback: boolean;
  /** exact origins, `https://app.example.com` */
  origins: string[];
}

/**
 * The request headers a GraphQL client sends (Apollo Client, urql, graphql-request, GraphiQL…),
 * and those of tracing (W3C trace context and baggage, as OpenTelemetry's browser instrumentation
 * adds them) and of request ids; GATEWAY_CORS_ALLOWED_HEADERS adds to them.
 */
export const CORS_ALLOWED_HEADERS = [
  "accept",
  "authorization",
  "content-type",
  "apollo-require-preflight",
  "x-apollo-operation-name",
  "apollographql-client-name",
  "apollographql-client-version",
  "traceparent",
  "tracestate",
  "baggage",
  REQUEST_ID_HEADER,
];
/** the answer's headers a page may read besides the CORS-safelisted ones */
export const CORS_EXPOSED_HEADERS = [REQUEST_ID_HEADER];
export const CORS_ALLOWED_METHODS = ["GET", "POST", "OPTIONS"];
/** how long a browser may reuse a preflight's answer (Chromium caps it at 2 h) */
export const CORS_MAX_AGE_S = 600;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `scheme://host[:port]` exactly as a browser serialises it, or null (paths, `null`, userinfo, …). */
export function asOrigin(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // a URL may carry `*` in its host, which no browser sends: a list entry with it is a wildcard attempt
  return url.origin === value && !url.hostname.includes("*") ? url : null;
}

/**
 * GATEWAY_CORS_ORIGINS: unset or empty → loopback outside production, nothing in production;
 * `none` → nothing; otherwise a comma-separated list of origins and the keyword `loopback`.
 * Throws with a message naming the first bad entry.
 */
export function parseCorsOrigins(value: string | undefined, production: boolean): CorsOrigins {
  const text = (value ?? "").trim();
  if (text === "") return { loopback: !production, origins: [] };
  if (text === "none") return { loopback: false, origins: [] };
  const result: CorsOrigins = { loopback: false, origins: [] };
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (entry === "loopback") {
      result.loopback = true;
      continue;
    }
    if (!asOrigin(entry)) {
      throw new ConfigError(
        `GATEWAY_CORS_ORIGINS must be "none" or a comma-separated list of origins (scheme://host[:port], no path, no wildcard) and "loopback", got "${excerpt(entry)}"`,
        "GATEWAY_CORS_ORIGINS",
      );
    }
    if (!result.origins.includes(entry)) result.origins.push(entry);
  }
  return result;
}

/** an HTTP header name (RFC 9110's token) */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/**
 * GATEWAY_CORS_ALLOWED_HEADERS: more request headers a browser may send (a comma-separated list of
 * header names, in any case), added to CORS_ALLOWED_HEADERS. No wildcard: the list is explicit.
 */
export function parseCorsAllowedHeaders(value: string | undefined): string[] {
  const headers = [...CORS_ALLOWED_HEADERS];
  for (const entry of (value ?? "").split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    if (!HEADER_NAME.test(entry) || entry === "*") {
      throw new ConfigError(`GATEWAY_CORS_ALLOWED_HEADERS must be a comma-separated list of header names (no wildcard), got "${excerpt(entry)}"`, "GATEWAY_CORS_ALLOWED_HEADERS");
    }
    const name = entry.toLowerCase();
    if (!headers.includes(name)) headers.push(name);
  }
  return headers;
}

export function originAllowed(policy: CorsOrigins, origin: string): boolean {
  const url = asOrigin(origin);
  if (!url) return false;
  if (policy.origins.includes(origin)) return true;
  return policy.loopback && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Applies the policy to one request of a GraphQL endpoint. A preflight (OPTIONS with `Origin` and
 * `Access-Control-Request-Method`) is answered here: 204 with the allowed methods and headers, or
 * 403 without any CORS header for a refused origin; the function then returns true. Any other
 * request gets `Access-Control-Allow-Origin` (and `-Expose-Headers`) when its origin is allowed, and
 * is left to the caller.
 */
export function handleCors(policy: CorsOrigins, req: IncomingMessage, res: ServerResponse, allowedHeaders: readonly string[] = CORS_ALLOWED_HEADERS): boolean {
  const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
  // the answer depends on the Origin header: caches must not serve one origin's answer to another
  res.setHeader("vary", "Origin");
  const allowed = origin !== undefined && originAllowed(policy, origin);
  const preflight = req.method === "OPTIONS" && origin !== undefined && req.headers["access-control-request-method"] !== undefined;
  if (preflight) {
    if (!allowed) {
      sendJson(res, 403, errorBody(ErrorCode.FORBIDDEN, "This origin may not call the gateway from a browser"));
      return true;
    }
    res.writeHead(204, {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": CORS_ALLOWED_METHODS.join(", "),
      "access-control-allow-headers": allowedHeaders.join(", "),
      "access-control-max-age": String(CORS_MAX_AGE_S),
      "content-length": "0",
    });
    res.end();
    return true;
  }
  if (allowed) {
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("access-control-expose-headers", CORS_EXPOSED_HEADERS.join(", "));
  }
  return false;
}
