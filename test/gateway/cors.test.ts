import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { ConfigError } from "../../platform/config.js";
import type { RunningGateway } from "../../gateway/gateway.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * CORS for browser frontends (GATEWAY_CORS_ORIGINS): preflights from allowed origins get 204 with
 * the headers GraphQL clients send; any other origin gets no CORS header at all; Apollo's CSRF
 * prevention still refuses the requests a browser sends without a preflight.
 */

const stack = useGatewayStack();
let production: RunningGateway;
let configured: RunningGateway;

beforeAll(async () => {
  production = await startExtraGateway(stack, { NODE_ENV: "production" });
  configured = await startExtraGateway(stack, {
    GATEWAY_CORS_ORIGINS: "https://app.example.com, http://intranet.example.com:8080",
    GATEWAY_CORS_ALLOWED_HEADERS: "X-Tenant, x-client-build",
  });
});

afterAll(async () => {
  await production?.close();
  await configured?.close();
});

function preflight(url: string, origin: string, headers = "authorization,content-type,apollo-require-preflight,x-apollo-operation-name") {
  return fetch(url + "graphql", {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": headers },
  });
}

function corsHeaders(res: Response): string[] {
  return [...res.headers.keys()].filter((k) => k.startsWith("access-control-"));
}

const QUERY = JSON.stringify({ query: "{ employee(id: \"10\") { id } }" });

describe("development default: any loopback origin", () => {
  it.each(["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080", "https://localhost", "http://localhost"])(
    "a preflight from %s gets 204 with the headers a GraphQL client sends",
    async (origin) => {
      stack.resetStats();
      const res = await preflight(stack.gateway.url, origin);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
      const allowed = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "apollo-require-preflight", "x-apollo-operation-name"]));
      expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
      expect(res.headers.get("access-control-allow-methods")).toMatch(/GET/);
      expect(res.headers.get("access-control-max-age")).toBe("600");
      // bearer tokens travel in a header: no cookies, so no credentialed requests
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("vary")).toMatch(/Origin/);
      expect(stack.stats().total).toBe(0);
    },
  );

  it("a POST from an allowed origin is answered with Access-Control-Allow-Origin", async () => {
    const res = await fetch(stack.gateway.url + "graphql", {
      method: "POST",
      headers: { origin: "http://localhost:3000", "content-type": "application/json" },
      body: QUERY,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(res.headers.get("vary")).toMatch(/Origin/);
    expect((await res.json()).data.employee.id).toBe("10");
  });

  it("a GET from an allowed origin with apollo-require-preflight is answered with Access-Control-Allow-Origin", async () => {
    const res = await fetch(`${stack.gateway.url}graphql?query=${encodeURIComponent('{ employee(id: "10") { id } }')}`, {
      headers: { origin: "http://127.0.0.1:3000", "apollo-require-preflight": "true" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:3000");
  });

  it.each([
    ["another site", "https://evil.example.com"],
    ["the opaque origin", "null"],
    ["a look-alike host", "http://localhost.evil.com"],
    ["a fragment trick", "http://evil.com#localhost"],
    ["userinfo", "http://localhost@evil.com"],
    ["an origin with a path", "http://localhost:3000/app"],
    ["an origin with a trailing slash", "http://localhost:3000/"],
    ["a non-http scheme", "file://localhost"],
    ["a sub-domain of localhost", "http://app.localhost:3000"],
    ["an upper-case spelling", "http://LOCALHOST:3000"],
    ["garbage", "not an origin"],
  ])("%s (%s): the preflight is refused with 403 and no CORS header, and a POST gets none", async (_what, origin) => {
    stack.resetStats();
    const res = await preflight(stack.gateway.url, origin);
    expect(res.status).toBe(403);
    expect(corsHeaders(res)).toEqual([]);
    expect((await res.json()).errors[0].extensions.code).toBe("FORBIDDEN");
    const post = await fetch(stack.gateway.url + "graphql", { method: "POST", headers: { origin, "content-type": "application/json" }, body: QUERY });
    expect(corsHeaders(post)).toEqual([]);
    expect(stack.stats().total).toBe(1); // the POST only: a browser would not let the page read it
  });

  it("CSRF prevention stays on: a simple cross-origin POST (text/plain) from an allowed origin is refused before any upstream call", async () => {
    stack.resetStats();
    const res = await fetch(stack.gateway.url + "graphql", {
      method: "POST",
      headers: { origin: "http://localhost:3000", "content-type": "text/plain" },
      body: QUERY,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/CSRF|preflight/i);
    expect(stack.stats().total).toBe(0);
  });

  it("CSRF prevention stays on: a GET without a preflight header is refused", async () => {
    const res = await fetch(`${stack.gateway.url}graphql?query=${encodeURIComponent("{ __typename }")}`, { headers: { origin: "http://localhost:3000" } });
    expect(res.status).toBe(400);
  });
});

describe("production and configured origins", () => {
  it("in production no origin is allowed until configured", async () => {
    const res = await preflight(production.url, "http://localhost:3000");
    expect(res.status).toBe(403);
    expect(corsHeaders(res)).toEqual([]);
  });

  it.each(["https://app.example.com", "http://intranet.example.com:8080"])("a configured origin (%s) is allowed", async (origin) => {
    const res = await preflight(configured.url, origin);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it.each(["http://localhost:3000", "http://app.example.com", "https://app.example.com:8443", "https://evil.app.example.com"])(
    "with a configured list, %s is refused",
    async (origin) => {
      const res = await preflight(configured.url, origin);
      expect(res.status).toBe(403);
      expect(corsHeaders(res)).toEqual([]);
    },
  );

  it("the keyword loopback adds the development default to a list", () => {
    expect(loadGatewayConfig({ NODE_ENV: "production", GATEWAY_CORS_ORIGINS: "loopback,https://app.example.com" }).corsOrigins).toEqual({
      loopback: true,
      origins: ["https://app.example.com"],
    });
    expect(loadGatewayConfig({ GATEWAY_CORS_ORIGINS: "none" }).corsOrigins).toEqual({ loopback: false, origins: [] });
  });

  it.each(["*", "https://*.example.com", "https://app.example.com/", "https://app.example.com/path", "app.example.com", "null", "ftp://example.com", "https://app.example.com,", "loopback;https://x.org"])(
    "GATEWAY_CORS_ORIGINS=%s stops the start with an error naming the variable",
    (value) => {
      expect(() => loadGatewayConfig({ GATEWAY_CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadGatewayConfig({ GATEWAY_CORS_ORIGINS: value })).toThrow(/GATEWAY_CORS_ORIGINS/);
    },
  );
});

describe("the headers of tracing and request ids", () => {
  it("a preflight for traceparent, tracestate, baggage and x-request-id is answered 204 with them allowed, by default", async () => {
    const res = await preflight(stack.gateway.url, "http://localhost:3000", "content-type,traceparent,tracestate,baggage,x-request-id");
    expect(res.status).toBe(204);
    const allowed = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["traceparent", "tracestate", "baggage", "x-request-id"]));
  });

  it("an answer to an allowed origin exposes x-request-id to the page, and carries the client's id", async () => {
    const res = await fetch(stack.gateway.url + "graphql", {
      method: "POST",
      headers: { origin: "http://localhost:3000", "content-type": "application/json", "x-request-id": "page-42" },
      body: QUERY,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-expose-headers")).toBe("x-request-id");
    expect(res.headers.get("x-request-id")).toBe("page-42");
  });

  it("GATEWAY_CORS_ALLOWED_HEADERS adds headers (in lower case) to the defaults", async () => {
    const res = await preflight(configured.url, "https://app.example.com", "x-tenant,traceparent");
    expect(res.status).toBe(204);
    const allowed = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "traceparent", "x-tenant", "x-client-build"]));
    const defaults = (await preflight(stack.gateway.url, "http://localhost:3000")).headers.get("access-control-allow-headers")!;
    expect(defaults).not.toContain("x-tenant");
  });

  it.each(["*", "x tenant", "x-tenant;y", "x-tenant,é", "a".repeat(101)])("GATEWAY_CORS_ALLOWED_HEADERS=%s stops the start with an error naming the variable", (value) => {
    expect(() => loadGatewayConfig({ GATEWAY_CORS_ALLOWED_HEADERS: value })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ GATEWAY_CORS_ALLOWED_HEADERS: value })).toThrow(/GATEWAY_CORS_ALLOWED_HEADERS/);
  });

  it("/metrics answers no CORS header to any origin", async () => {
    const res = await fetch(stack.gateway.url + "metrics", { headers: { origin: "http://localhost:3000" } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    const pre = await fetch(stack.gateway.url + "metrics", { method: "OPTIONS", headers: { origin: "http://localhost:3000", "access-control-request-method": "GET" } });
    expect(corsHeaders(pre)).toEqual([]);
  });
});
