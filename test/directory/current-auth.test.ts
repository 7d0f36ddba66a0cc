import { beforeAll, describe, expect, it } from "vitest";
import { startDirectory } from "../../directory/server.js";
import { directoryToken, get, postToken } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

const directory = useDirectory({ employees: 50, today: "2026-06-15" });
let token: string;

beforeAll(async () => {
  token = await directoryToken(directory.url);
});

const credentials = { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" };

describe("token endpoint", () => {
  it("issues a bearer token with every scope of the client when no scope is asked", async () => {
    const { status, body, headers } = await postToken(directory.url, credentials);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 1800, scope: expect.any(String) });
    const scopes = body.scope.split(" ");
    expect(scopes).toContain("employees.readonly");
    expect(scopes).toContain("taxonomies.readwrite");
    expect(scopes).toContain("departments.readonly");
    expect(scopes).toContain("webhook-deliveries.readwrite");
  });

  it("grants exactly the scopes asked for", async () => {
    const { body } = await postToken(directory.url, { ...credentials, scope: "employees.readonly  employments.readonly" });
    expect(body.scope).toBe("employees.readonly employments.readonly");
  });

  it("issues a different opaque token each time", async () => {
    const a = await directoryToken(directory.url);
    const b = await directoryToken(directory.url);
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(32);
  });

  it("accepts client credentials in a Basic Authorization header", async () => {
    const basic = Buffer.from("demo-limited:demo-secret").toString("base64");
    const { status, body } = await postToken(directory.url, { grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(status).toBe(200);
    expect(body.scope).toBe("employees.readonly job-positions.readonly employments.readonly departments.readonly");
  });

  it("a wrong secret is a 401 invalid_client", async () => {
    const { status, body } = await postToken(directory.url, { ...credentials, client_secret: "guess" });
    expect(status).toBe(401);
    expect(body).toEqual({ error: "invalid_client", error_description: expect.any(String) });
  });

  it("an unknown client is a 401 invalid_client", async () => {
    const { status, body } = await postToken(directory.url, { ...credentials, client_id: "nobody" });
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });

  it("missing client credentials are a 401 invalid_client", async () => {
    const { status, body } = await postToken(directory.url, { grant_type: "client_credentials" });
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });

  it("another grant type is a 400 unsupported_grant_type", async () => {
    const { status, body } = await postToken(directory.url, { ...credentials, grant_type: "password" });
    expect(status).toBe(400);
    expect(body.error).toBe("unsupported_grant_type");
  });

  it("a missing grant type is a 400 invalid_request", async () => {
    const { grant_type: _omitted, ...rest } = credentials;
    const { status, body } = await postToken(directory.url, rest);
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_request");
  });

  it("a scope the client lacks is a 400 invalid_scope naming it", async () => {
    const { status, body } = await postToken(directory.url, {
      ...credentials,
      client_id: "demo-limited",
      scope: "employees.readonly legal-entities.readonly",
    });
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_scope");
    expect(body.error_description).toContain("legal-entities.readonly");
  });

  it("an unknown scope is a 400 invalid_scope", async () => {
    const { status, body } = await postToken(directory.url, { ...credentials, scope: "everything" });
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_scope");
  });

  it("a JSON body is a 400 invalid_request", async () => {
    const res = await fetch(`${directory.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(credentials),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toBe("invalid_request");
  });

  it("GET on the token endpoint is a 405 that allows POST", async () => {
    const res = await fetch(`${directory.url}/connect/token`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("clients given at start-up", () => {
  it("get tokens with their own scopes, beside the demo clients", async () => {
    const extra = await startDirectory({
    limits: { requests: 0 },
      employees: 5,
      today: "2026-06-15",
      clients: { auditor: { secret: "s3cret", scopes: ["legal-entities.readonly"], visibleEstablishmentIds: null } },
    });
    try {
      const granted = await postToken(extra.url, { grant_type: "client_credentials", client_id: "auditor", client_secret: "s3cret" });
      expect(granted.body.scope).toBe("legal-entities.readonly");
      expect((await get(extra.url, granted.body.access_token, "/service-api/legal-entities")).status).toBe(200);
      expect((await get(extra.url, granted.body.access_token, "/service-api/employees")).status).toBe(403);
      expect((await postToken(extra.url, credentials)).status).toBe(200);
    } finally {
      await extra.close();
    }
  });

  it.each([
    ["an unknown scope", { secret: "s", scopes: ["employees.read"], visibleEstablishmentIds: null }, "unknown scopes employees.read"],
    ["an empty secret", { secret: "", scopes: [], visibleEstablishmentIds: null }, "secret"],
    ["establishments that are not a list", { secret: "s", scopes: [], visibleEstablishmentIds: "1" }, "visibleEstablishmentIds"],
  ])("with %s are refused at start-up, naming the client", async (_name, client, message) => {
    await expect(startDirectory({ limits: { requests: 0 }, employees: 1, today: "2026-06-15", clients: { broken: client as never } })).rejects.toThrow(
      new RegExp(`directory client "broken": .*${message}`),
    );
  });
});

describe("authentication of the current API", () => {
  it("a request without a token is a 401 problem with a Bearer challenge", async () => {
    const { status, body, headers } = await get(directory.url, null, "/service-api/employees");
    expect(status).toBe(401);
    expect(headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(headers.get("content-type")).toContain("application/problem+json");
    expect(body).toMatchObject({ status: 401, title: "Unauthorized" });
  });

  it("a token never issued is a 401 invalid_token", async () => {
    const { status, headers } = await get(directory.url, "made-up-token", "/service-api/employees");
    expect(status).toBe(401);
    expect(headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("another authorization scheme is a 401", async () => {
    const { status } = await get(directory.url, null, "/service-api/employees", { authorization: "service application=demo-api-key" });
    expect(status).toBe(401);
  });

  it("an expired token is a 401", async () => {
    const shortLived = await startDirectory({ limits: { requests: 0 }, employees: 5, today: "2026-06-15", tokenLifetimeSeconds: 1 });
    try {
      const { body } = await postToken(shortLived.url, credentials);
      expect(body.expires_in).toBe(1);
      expect((await get(shortLived.url, body.access_token, "/service-api/employees")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      const expired = await get(shortLived.url, body.access_token, "/service-api/employees");
      expect(expired.status).toBe(401);
      expect(expired.body.detail).toContain("expired");
    } finally {
      await shortLived.close();
    }
  });

  it("a missing Api-Version is a 400 naming the header", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees", { "api-version": null });
    expect(status).toBe(400);
    expect(body.errors).toHaveProperty("Api-Version");
  });

  it("another Api-Version is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees", { "api-version": "2023-01-01" });
    expect(status).toBe(400);
    expect(body.errors["Api-Version"][0]).toContain("2024-11-01");
  });

  it("an Api-Version longer than 10 characters is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees", { "api-version": "2024-11-01x" });
    expect(status).toBe(400);
    expect(body.errors["Api-Version"][0]).toContain("10 characters");
  });

  it("the token is checked before the Api-Version", async () => {
    const { status } = await get(directory.url, null, "/service-api/employees", { "api-version": null });
    expect(status).toBe(401);
  });

  it("the Api-Version is checked before the scope", async () => {
    const limited = await directoryToken(directory.url, "demo-limited");
    const { status } = await get(directory.url, limited, "/service-api/legal-entities", { "api-version": null });
    expect(status).toBe(400);
  });

  it("a token without the resource's scope is a 403 with an insufficient_scope challenge", async () => {
    const limited = await directoryToken(directory.url, "demo-limited");
    const { status, body, headers } = await get(directory.url, limited, "/service-api/employee-personal-records");
    expect(status).toBe(403);
    expect(body).toMatchObject({ status: 403, title: "Forbidden" });
    expect(headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });

  it("a single read needs the scope as well", async () => {
    const onlyEmployees = await directoryToken(directory.url, "demo-client", "employees.readonly");
    expect((await get(directory.url, onlyEmployees, "/service-api/job-positions/1")).status).toBe(403);
    expect((await get(directory.url, onlyEmployees, "/service-api/employees/1")).status).toBe(200);
  });

  it("a readwrite scope grants reading", async () => {
    const readwrite = await directoryToken(directory.url, "demo-client", "employments.readwrite");
    expect((await get(directory.url, readwrite, "/service-api/employments")).status).toBe(200);
  });

  it("the scope is checked before the parameters", async () => {
    const onlyEmployees = await directoryToken(directory.url, "demo-client", "employees.readonly");
    expect((await get(directory.url, onlyEmployees, "/service-api/employments?limit=1000")).status).toBe(403);
  });
});
