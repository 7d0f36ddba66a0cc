import type { IncomingHttpHeaders, IncomingMessage } from "node:http";

/**
 * A minimal router for the in-process directory service. Routes are registered with a
 * method and a pattern whose `{name}` segments capture path parameters; the pattern is also
 * the route's name in the request statistics (`GET /service-api/employees/{id}`).
 */

export interface DirectoryRequest {
  method: string;
  /** path without the query string */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  /** parsed JSON body (or form fields for `application/x-www-form-urlencoded`); undefined without a body */
  body: unknown;
  /** `http://127.0.0.1:4010`: the origin the request was addressed to, for hrefs */
  origin: string;
  raw: IncomingMessage;
}

export interface DirectoryResponse {
  status: number;
  headers?: Record<string, string>;
  /** serialised as JSON unless undefined (no body) */
  body?: unknown;
  /** the body's JSON when it is already made (the ETag's input): sent as it is */
  text?: string;
}

export type Handler = (req: DirectoryRequest) => DirectoryResponse | Promise<DirectoryResponse>;

/** Thrown by handlers: answered as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
  /** literal segments match whatever their case (the legacy API's paths) */
  ignoreCase: boolean;
}

export interface RouteOptions {
  ignoreCase?: boolean;
}

export interface RouteMatch {
  route: { method: string; pattern: string };
  params: Record<string, string>;
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    const ignoreCase = options.ignoreCase ?? false;
    const segments = pattern.split("/").map((s) => (ignoreCase && !s.startsWith("{") ? s.toLowerCase() : s));
    this.routes.push({ method, pattern, segments, handler, ignoreCase });
    return this;
  }
  get(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add("GET", pattern, handler, options);
  }
  put(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add("PUT", pattern, handler, options);
  }
  post(pattern: string, handler: Handler): this {
    return this.add("POST", pattern, handler);
  }
  delete(pattern: string, handler: Handler): this {
    return this.add("DELETE", pattern, handler);
  }

  /** Every route, as registered (method and pattern). */
  list(): Array<{ method: string; pattern: string }> {
    return this.routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  /**
   * The matching route; `{allowed}` when the path exists only under other methods (a 405 with
   * an `Allow` header); null when no route has the path (a 404).
   */
  match(method: string, path: string): RouteMatch | { allowed: string[] } | null {
    const parts = path.split("/");
    const lower = parts.map((p) => p.toLowerCase());
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts, route.ignoreCase ? lower : parts);
      if (!params) continue;
      if (route.method !== method) {
        allowed.add(route.method);
        continue;
      }
      return { route: { method: route.method, pattern: route.pattern }, params, handler: route.handler };
    }
    if (allowed.size === 0) return null;
    if (allowed.has("GET")) allowed.add("HEAD");
    return { allowed: [...allowed].sort() };
  }
}

/** `literal` is `parts` as the route compares them (lower-cased for a route that ignores case). */
function matchSegments(pattern: string[], parts: string[], literal: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith("{") && p.endsWith("}")) {
      if (v === "") return null;
      let decoded: string;
      try {
        decoded = decodeURIComponent(v);
      } catch {
        return null;
      }
      params[p.slice(1, -1)] = decoded;
    } else if (p !== literal[i]) {
      return null;
    }
  }
  return params;
}
