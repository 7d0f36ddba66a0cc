import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import {
  COLLECTIONS,
  OAUTH_ERROR,
  PROBLEM,
  RESOURCE_SHAPES,
  TOKEN,
  collectionShape,
} from "../../contract/rest-shapes.js";
import { API_VERSION, directoryToken } from "./current-helpers.js";

/**
 * Conformance of the in-process service to the declared response shapes
 * (contract/rest-shapes.ts): every answer below, successes and errors alike, is
 * validated, strictly (no undeclared member, closed enums), and every answer of the current API
 * must carry `Api-Version`. Every record of every collection is read (all pages, with links,
 * embedded and totalCount), and every embedded representation is checked against the shape of its
 * type, as a partial representation (the interface allows them: `id`, `type`, `url` and any of the
 * type's members, nothing undeclared). The count of answers checked is printed and asserted.
 */

let directory: RunningDirectory;
let receiver: Server;
let token: string;
let limited: string;
let checked = 0;
const failures: string[] = [];

const compiled = new Map<TSchema, TypeCheck<TSchema>>();
function validator(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  return check;
}

/** The problems of `value` against `schema`, as `path: message` lines. */
function problems(schema: TSchema, value: unknown): string[] {
  const check = validator(schema);
  if (check.Check(value)) return [];
  return [...check.Errors(value)].slice(0, 5).map((e) => `${e.path || "/"}: ${e.message}`);
}

const collectionShapes = new Map<string, TSchema>();
function listShape(collection: string): TSchema {
  let shape = collectionShapes.get(collection);
  if (!shape) collectionShapes.set(collection, (shape = collectionShape(collection, RESOURCE_SHAPES[COLLECTIONS[collection]!]!)));
  return shape;
}

const partialShapes = new Map<string, TSchema>();
function partialShape(type: string, shape: TObject): TSchema {
  let partial = partialShapes.get(type);
  if (!partial) partialShapes.set(type, (partial = Type.Composite([Type.Partial(shape), Type.Pick(shape, ["id", "type", "url"])], { additionalProperties: false })));
  return partial;
}

function embeddedProblems(body: any): string[] {
  const out: string[] = [];
  for (const [type, byId] of Object.entries<Record<string, unknown>>(body?.embedded ?? {})) {
    const shape = RESOURCE_SHAPES[type];
    if (!shape) {
      out.push(`/embedded/${type}: no declared shape`);
      continue;
    }
    for (const [id, representation] of Object.entries(byId)) {
      out.push(...problems(partialShape(type, shape), representation).map((p) => `/embedded/${type}/${id}${p}`));
    }
  }
  return out;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One request, and the check of its answer against the declared shape for its path and status. */
async function call(path: string, init: { token?: string | null; headers?: Record<string, string>; method?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { "api-version": API_VERSION, ...init.headers };
  const bearer = init.token === undefined ? token : init.token;
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${directory.url}${path}`, {
    method: init.method ?? "GET",
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const type = res.headers.get("content-type") ?? "";
  const raw = Buffer.from(await res.arrayBuffer());
  const body = type.includes("json") && raw.length > 0 ? JSON.parse(raw.toString("utf8")) : raw;
  const answer = { status: res.status, headers: res.headers, body };
  const found = checkAnswer(path, init.method ?? "GET", answer);
  checked++;
  if (found.length > 0) failures.push(`${init.method ?? "GET"} ${path} -> ${res.status}\n  ${found.join("\n  ")}`);
  return answer;
}

function checkAnswer(path: string, method: string, answer: Answer): string[] {
  const out: string[] = [];
  const url = new URL(path, "http://x");
  const segments = url.pathname.split("/").filter(Boolean);
  if (segments[0] === "service-api" && answer.headers.get("api-version") !== API_VERSION) out.push("no Api-Version header");
  if (answer.status === 304) {
    if (answer.body.length !== 0) out.push("a 304 with a body");
    return out;
  }
  if (answer.status >= 400) {
    const type = answer.headers.get("content-type") ?? "";
    if (segments[0] === "connect") return [...out, ...problems(OAUTH_ERROR, answer.body)];
    if (!type.startsWith("application/problem+json")) out.push(`error content type ${type}`);
    out.push(...problems(PROBLEM, answer.body));
    if (answer.body?.status !== answer.status) out.push("problem status differs from the HTTP status");
    return out;
  }
  if (segments[0] === "connect") return [...out, ...problems(TOKEN, answer.body)];
  const [, collection, id] = segments;
  if (collection === "files" || (Buffer.isBuffer(answer.body) && (answer.headers.get("content-type") ?? "").startsWith("image/"))) {
    if (answer.headers.get("content-type") !== "image/png") out.push("a file that is not a PNG");
    else if (!answer.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) out.push("no PNG signature");
    return out;
  }
  if (method === "GET" && !answer.headers.get("etag")?.startsWith('W/"')) out.push("no weak ETag");
  const itemType = COLLECTIONS[collection!];
  if (!itemType) return [...out, `no declared shape for /${collection}`];
  const isRepresentation = id !== undefined || (method === "POST" && answer.status === 202);
  if (isRepresentation) out.push(...problems(RESOURCE_SHAPES[itemType]!, answer.body));
  else out.push(...problems(listShape(collection!), answer.body));
  out.push(...embeddedProblems(answer.body));
  return out;
}

/** Every page of a list, each answer checked. */
async function readAll(collection: string, query = ""): Promise<any[]> {
  const items: any[] = [];
  let next: string | null = `/service-api/${collection}?limit=100&include=links&include=embedded&include=totalCount${query}`;
  while (next) {
    const page: Answer = await call(next);
    expect(page.status, next).toBe(200);
    items.push(...page.body.items);
    const href: string | undefined = page.body.links?.next?.href;
    next = href ? href.slice(directory.url.length) : null;
  }
  return items;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(req.url === "/ok" ? 204 : 503).end(req.url === "/ok" ? undefined : "unavailable"));
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  directory = await startDirectory({
    limits: { requests: 0 },
    employees: 120,
    today: "2025-06-01",
    webhookEndpoints: [
      { id: "1", url: `${hooks}/ok`, isActive: true },
      { id: "2", url: `${hooks}/fail`, isActive: true },
      { id: "3", url: `${hooks}/ok`, isActive: false },
    ],
  });
  token = await directoryToken(directory.url);
  limited = await directoryToken(directory.url, "demo-limited");
});

afterAll(async () => {
  await directory?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe("conformance of the in-process service to the declared shapes", () => {
  it("answers every request with a body of its declared shape", async () => {
    // the test deliveries first, so that the reads below see their events and attempts
    expect((await call("/service-api/webhook-deliveries?include=links", { method: "POST", body: { webhookEndpoint: { id: "1" } } })).status).toBe(202);
    expect((await call("/service-api/webhook-deliveries?webhookEndpoint.id=2&include=links", { method: "POST" })).status).toBe(202);
    expect((await call("/service-api/webhook-deliveries", { method: "POST", body: { webhookEndpoint: { id: "3" } } })).status).toBe(400);
    expect((await call("/service-api/webhook-deliveries?webhookEndpoint.id=404", { method: "POST" })).status).toBe(404);
    expect((await call("/service-api/webhook-deliveries", { method: "POST", body: { nothing: true } })).status).toBe(400);
    expect((await call("/service-api/webhook-deliveries?webhookEndpoint.id=1", { method: "POST", token: limited })).status).toBe(403);

    for (const collection of Object.keys(COLLECTIONS)) {
      const items = await readAll(collection);
      expect(items.length, collection).toBeGreaterThan(0);
      const first = items[0]!;
      // single reads, plain and with everything
      await call(`/service-api/${collection}/${encodeURIComponent(first.id)}`);
      const full = await call(`/service-api/${collection}/${encodeURIComponent(first.id)}?include=links,embedded`);
      expect(full.status, collection).toBe(200);
      // an empty page with its count, and the other direction
      expect((await call(`/service-api/${collection}?limit=0&include=totalCount`)).body.totalCount, collection).toBe(items.length);
      await call(`/service-api/${collection}?sort=-id&limit=3&include=links`);
      // the errors of the same reads
      expect((await call(`/service-api/${collection}/no-such-id`)).status, collection).toBe(404);
      expect((await call(`/service-api/${collection}?limit=101`)).status, collection).toBe(400);
      expect((await call(`/service-api/${collection}?include=everything`)).status, collection).toBe(400);
      expect((await call(`/service-api/${collection}?noSuchFilter=1`)).status, collection).toBe(400);
      expect((await call(`/service-api/${collection}`, { token: null })).status, collection).toBe(401);
      expect((await call(`/service-api/${collection}`, { headers: { "api-version": "2020-01-01" } })).status, collection).toBe(400);
      // preconditions on the ETag of the full single read
      const etag = full.headers.get("etag")!;
      expect((await call(`/service-api/${collection}/${encodeURIComponent(first.id)}?include=links,embedded`, { headers: { "if-none-match": etag } })).status).toBe(304);
      expect((await call(`/service-api/${collection}/${encodeURIComponent(first.id)}`, { headers: { "if-match": 'W/"stale"' } })).status).toBe(412);
      // the limited client: its scopes and visibility
      const narrow = await call(`/service-api/${collection}?limit=5&include=links`, { token: limited });
      expect([200, 403], collection).toContain(narrow.status);
    }

    // filters the production service's document lists on the new reads
    await readAll("webhook-delivery-attempts", "&webhookDelivery.id=1");
    await readAll("webhook-deliveries", "&webhookEndpoint.id=2");
    await readAll("professions", "&isArchived=false");
    // the include parameter, exploded and comma-separated
    await call("/service-api/employees?include=links&include=totalCount&limit=3");
    await call("/service-api/employees?include=links,totalCount&limit=3");

    // files: a portrait's image, by content negotiation and by its file address
    const employee = await call("/service-api/employees/1?include=links");
    expect((await call(`/service-api/portraits/${employee.body.portrait.id}`, { headers: { accept: "image/*" } })).status).toBe(200);
    const file = await call(employee.body.links.portrait.href.slice(directory.url.length), { token: null });
    expect(file.status).toBe(200);
    expect((await call("/service-api/files/1?token=forged", { token: null })).status).toBe(404);

    // the token endpoint
    const form = (body: Record<string, string>) =>
      fetch(`${directory.url}/connect/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });
    for (const [body, status] of [
      [{ grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret", scope: "job-qualifications.readonly events.readonly" }, 200],
      [{ grant_type: "client_credentials", client_id: "demo-limited", client_secret: "demo-secret", scope: "job-qualifications.readonly" }, 400],
      [{ grant_type: "client_credentials", client_id: "demo-client", client_secret: "wrong" }, 401],
    ] as const) {
      const res = await form(body);
      expect(res.status).toBe(status);
      const found = checkAnswer("/connect/token", "POST", { status: res.status, headers: res.headers, body: await res.json() });
      checked++;
      if (found.length > 0) failures.push(`POST /connect/token -> ${res.status}\n  ${found.join("\n  ")}`);
    }

    console.log(`conformance: ${checked} answers checked against the declared shapes, ${failures.length} did not conform`);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  }, 120_000);
});

describe("the declared shapes reject what the production service does not send", () => {
  const base = { createdAt: "2024-01-01T00:00:00.000Z", lastUpdatedAt: "2024-01-01T00:00:00.000Z" };
  const ref = (type: string, id = "1") => ({ id, type, url: `http://h/service-api/x/${id}` });
  const valid: Record<string, any> = {
    "employment-template": { id: "1", type: "employment-template", url: "u", title: "T", legalEntities: [], term: "fixed", audience: "student", t9n: {}, ...base },
    "legal-entity": {
      id: "1", type: "legal-entity", url: "u", legalName: "L", remoteId: "R", isArchived: false, countryCode: "GBR", currencyCode: "GBP",
      taxIdentificationNumber: { format: "other", value: "1" }, industryCode: { format: "other", value: "62012" }, ...base, lastArchivedAt: null,
    },
    department: {
      id: "2", type: "department", url: "u", name: "D", description: null, remoteId: null, isArchived: false, parent: ref("department"), level: 2,
      manager: null, sortOrder: 0, owningApplication: "directory", links: { activeEmployees: { href: "h" } },
    },
    taxonomy: { id: "1", type: "taxonomy", url: "u", name: "T", sortLabelsBy: "id", ...base, t9n: {}, links: {} },
    "occupation-category": { id: "1", type: "occupation-category", url: "u", title: "C", businessEstablishments: null, t9n: {}, links: {} },
    "job-qualification": { id: "1", type: "job-qualification", url: "u", title: "Q", profession: ref("profession"), rank: 1, t9n: {}, ...base },
  };

  it("accepts the documented representations", () => {
    for (const [type, body] of Object.entries(valid)) expect(problems(RESOURCE_SHAPES[type]!, body), type).toEqual([]);
  });

  it.each([
    ["employment-template", { audience: "intern" }],
    ["employment-template", { audience: "contractor" }],
    ["legal-entity", { taxIdentificationNumber: { format: "unitedKingdomCRN", value: "1" } }],
    ["legal-entity", { industryCode: { format: "unitedKingdomSIC", value: "1" } }],
    ["department", { links: { employees: { href: "h" }, jobPositions: { href: "h" } } }],
    ["taxonomy", { sortLabelsBy: "createdAt" }],
    ["taxonomy", { links: { labels: { href: "h" } } }],
    ["occupation-category", { createdAt: base.createdAt }],
    ["occupation-category", { links: { jobPositions: { href: "h" } } }],
    ["job-qualification", { links: { jobPositions: { href: "h" } } }],
  ])("rejects a %s with %j", (type, change) => {
    expect(problems(RESOURCE_SHAPES[type]!, { ...valid[type], ...change })).not.toEqual([]);
  });

  it.each([
    ["department", "sortOrder"],
    ["job-qualification", "t9n"],
  ])("rejects a %s without %s", (type, member) => {
    const { [member]: _dropped, ...rest } = valid[type];
    expect(problems(RESOURCE_SHAPES[type]!, rest)).not.toEqual([]);
  });
});
