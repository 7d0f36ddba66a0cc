import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { registerCurrentApi } from "../../directory/current/index.js";
import { resources } from "../../directory/current/resources/index.js";
import { generateCompany } from "../../directory/data/generate.js";
import { Router } from "../../directory/http/router.js";
import { useDirectory } from "../helpers/stack.js";
import { API_VERSION, directoryToken, get } from "./current-helpers.js";

/**
 * `GET /service-api/openapi.json` (directory/current/openapi.ts): an OpenAPI 3.1 document that a
 * validator of the specification accepts, that names every route the current API registers, and
 * whose schemas the service's own answers validate against (successes, problems, the token).
 */

const directory = useDirectory({ employees: 40, today: "2026-06-15" });

async function document(): Promise<any> {
  const res = await fetch(`${directory.url}/service-api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.json();
}

/** A validator of the document's own schemas (JSON Schema 2020-12, as OpenAPI 3.1 says). */
function schemaValidator(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi", components: doc.components });
  return (schema: unknown, value: unknown): string[] => {
    const check = ajv.compile(rebase(schema) as object);
    return check(value) ? [] : (check.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"}: ${e.message}`);
  };
}

/** `#/components/...` refs of an operation's schema, pointed at the document added as `openapi`. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
}

describe("the current API's OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document, served without a token", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(API_VERSION);
    expect(doc.servers).toEqual([{ url: directory.url }]);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route the current API registers, with the same method and path", async () => {
    const doc = await document();
    const router = new Router();
    registerCurrentApi(router, { company: generateCompany({ employees: 5, today: "2026-06-15" }), options: { tokenLifetimeSeconds: 60 } });
    const routes = router.list();
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.filter((r) => !doc.paths[r.pattern]?.[r.method.toLowerCase()]);
    expect(missing).toEqual([]);
    // and nothing the service does not serve
    const served = new Set(routes.map((r) => `${r.method} ${r.pattern}`));
    const described = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(described.filter((d) => !served.has(d))).toEqual([]);
    // every list's filters and sorts, as the resource declares them
    const employees = doc.paths["/service-api/employees"].get;
    const params = employees.parameters.map((p: any) => p.name ?? p.$ref);
    for (const name of Object.keys(resources.find((r) => r.collection === "employees")!.filters!)) expect(params).toContain(name);
    expect(employees.parameters.find((p: any) => p.name === "sort").schema.pattern).toContain("familyName");
  });

  it("has schemas every answer of every list and single read validates against, embedded, links and counts included", async () => {
    const doc = await document();
    const problems = schemaValidator(doc);
    const token = await directoryToken(directory.url);
    const failures: string[] = [];
    let checked = 0;
    for (const def of resources) {
      if (def.list === false) continue;
      const path = `/service-api/${def.collection}`;
      const list = await get(directory.url, token, `${path}?limit=3&include=embedded,links,totalCount`);
      expect(list.status, path).toBe(200);
      const listSchema = doc.paths[path].get.responses["200"].content["application/json"].schema;
      failures.push(...problems(listSchema, list.body).map((p) => `${path} ${p}`));
      checked++;
      const first = list.body.items[0];
      if (!first || def.single === false) continue;
      const one = await get(directory.url, token, `${path}/${encodeURIComponent(first.id)}?include=links`);
      const oneSchema = doc.paths[`${path}/{id}`].get.responses["200"].content["application/json"].schema;
      failures.push(...problems(oneSchema, one.body).map((p) => `${path}/{id} ${p}`));
      checked++;
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it("declares the problems and the token as they are answered, and a schema rejects what the service never sends", async () => {
    const doc = await document();
    const problems = schemaValidator(doc);
    const token = await directoryToken(directory.url);
    const bad = await get(directory.url, token, "/service-api/employees?limit=500&nonsense=1");
    expect(bad.status).toBe(400);
    expect(problems(doc.paths["/service-api/employees"].get.responses["400"].content["application/problem+json"].schema, bad.body)).toEqual([]);
    const missing = await get(directory.url, token, "/service-api/employees/999999");
    expect(missing.status).toBe(404);
    expect(problems(doc.components.schemas.Problem, missing.body)).toEqual([]);
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" });
    const issued = await (await fetch(`${directory.url}/connect/token`, { method: "POST", body: form })).json();
    expect(problems(doc.paths["/connect/token"].post.responses["200"].content["application/json"].schema, issued)).toEqual([]);
    // the schemas are strict: a made-up member or a wrong type is refused
    const employee = (await get(directory.url, token, "/service-api/employees?limit=1")).body.items[0];
    expect(problems({ $ref: "#/components/schemas/Employee" }, { ...employee, salary: 1 })).not.toEqual([]);
    expect(problems({ $ref: "#/components/schemas/Employee" }, { ...employee, givenName: 3 })).not.toEqual([]);
  });

  it("is a read only route", async () => {
    const post = await fetch(`${directory.url}/service-api/openapi.json`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
  });
});
