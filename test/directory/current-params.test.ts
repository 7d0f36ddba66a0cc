import { beforeAll, describe, expect, it } from "vitest";
import { INTERFACE_OPERATIONS, LINK_PARAMS, PRODUCTION_OPERATIONS, publishedParams } from "../../contract/current-params.js";
import { resources } from "../../directory/current/resources/index.js";
import { directoryToken, get } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

/**
 * The query parameters each path of the current API accepts, compared with production's published
 * list per path (contract/current-params.ts): the twin takes every parameter production lists and
 * refuses every other with a 400 naming it, a few declared parameters of its own apart. The
 * accepted set is probed over HTTP (an unknown parameter is answered "unknown parameter"; a known
 * one with a bad value any other way), and the twin's own OpenAPI document must say the same.
 */

const directory = useDirectory({ employees: 60, today: "2026-06-15" });
let token: string;

/** What the twin accepts beyond the contract, and why: each a decision, never a silent extra. */
const TWIN_OWN: Record<string, readonly string[]> = {
  // the webhook lists are left as they were: by id, and the deliveries of one endpoint
  "GET /service-api/webhook-endpoints": ["sort"],
  "GET /service-api/webhook-deliveries": ["webhookEndpoint.id", "sort"],
  "GET /service-api/webhook-delivery-attempts": ["sort"],
};
/** Reads the twin serves that neither production's document nor the interface publishes. */
const TWIN_OWN_OPERATIONS: Record<string, readonly string[]> = {
  "GET /service-api/portraits": ["include", "page", "limit"],
  "GET /service-api/taxonomies/{id}": ["include"],
};

/** Every parameter name any path knows: the candidates each path is probed with. */
const candidates = [
  ...new Set([
    ...Object.values(PRODUCTION_OPERATIONS).flat(),
    ...Object.values(INTERFACE_OPERATIONS).flat(),
    ...Object.values(LINK_PARAMS).flat(),
    ...Object.values(TWIN_OWN).flat(),
    ...resources.flatMap((def) => Object.keys(def.filters ?? {})),
    "include",
    "page",
    "limit",
    "sort",
  ]),
].sort();

const operations = resources.flatMap((def) => [
  ...(def.list ?? true ? [{ key: `GET /service-api/${def.collection}`, path: `/service-api/${def.collection}` }] : []),
  ...(def.single ?? true ? [{ key: `GET /service-api/${def.collection}/{id}`, path: `/service-api/${def.collection}/1` }] : []),
]);

function expected(key: string): string[] {
  const own = TWIN_OWN_OPERATIONS[key];
  if (own) return [...own].sort();
  const published = publishedParams(key);
  if (published === null) throw new Error(`${key}: served by the twin, published nowhere, and not declared its own`);
  return [...new Set([...published, ...(TWIN_OWN[key] ?? [])])].sort();
}

beforeAll(async () => {
  token = await directoryToken(directory.url);
});

describe("the query parameters of each path of the current API", () => {
  it("production's list has a path for every collection the twin serves, or the twin declares it its own", () => {
    for (const { key } of operations) expect(() => expected(key), key).not.toThrow();
  });

  it.each(operations.map((o) => [o.key, o] as const))("%s accepts exactly production's parameters", async (key, { path }) => {
    // every candidate at once, with a value no filter takes: the 400 reports every parameter's
    // problem, an unknown one as unknown, a known one's bad value some other way
    const query = candidates.map((name) => `${encodeURIComponent(name)}=%00`).join("&");
    const answer = await get(directory.url, token, `${path}?${query}`);
    expect(answer.status).toBe(400);
    const unknown = (name: string) => (answer.body.errors?.[name] ?? []).some((e: string) => e.startsWith("unknown parameter"));
    expect(candidates.filter((name) => !unknown(name))).toEqual(expected(key));
  });

  it("sort is refused, naming it, on a list whose production document has none", async () => {
    const answer = await get(directory.url, token, "/service-api/legal-entities?sort=id");
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(["sort"]);
    expect((await get(directory.url, token, "/service-api/employees?sort=-familyName")).status).toBe(200);
  });

  it("the twin's OpenAPI document lists the same parameters per path", async () => {
    const doc = (await get(directory.url, null, "/service-api/openapi.json")).body;
    const resolve = (p: any) => (p.$ref ? p.$ref.split("/").slice(1).reduce((o: any, k: string) => o[k], doc) : p);
    for (const { key } of operations) {
      const [method, path] = key.split(" ") as [string, string];
      const parameters: any[] = doc.paths[path]?.[method.toLowerCase()]?.parameters ?? [];
      const query = parameters.map(resolve).filter((p) => p.in === "query").map((p) => p.name as string);
      expect(query.sort(), key).toEqual(expected(key));
    }
  });
});
