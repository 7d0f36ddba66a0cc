import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../../gateway/gateway.js";
import { distinctRepresentations, expandEntities } from "../../gateway/apollo/representations.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { postGraphQL } from "../helpers/stack.js";

/**
 * Each entity asked of a subgraph once per fetch (gateway/apollo/representations.ts): the representations
 * a fetch sends are distinct, and the answer the gateway gets back has one entity per place, each
 * error of an entity at each of its places.
 */

describe("distinct representations", () => {
  const a = { __typename: "Department", id: "1" };
  const b = { __typename: "Department", id: "2" };

  it("are none when no two are alike, else the distinct ones in order and where each place's is", () => {
    expect(distinctRepresentations([a, b])).toBeNull();
    expect(distinctRepresentations([a, b, { ...a }, b, a])).toEqual({ representations: [a, b], of: [0, 1, 0, 1, 0] });
  });

  it("tell other representations apart by all their fields: a type's ids do not merge what differs elsewhere", () => {
    const named = { __typename: "Department", id: "1", name: "x" };
    const renamed = { __typename: "Department", id: "1", name: "y" };
    const numeric = { __typename: "Department", id: 1 };
    const nested = { __typename: "Employee", id: "1", address: { city: "Paris" } };
    expect(distinctRepresentations([a, named, renamed, { ...named }, numeric, { ...numeric }, nested, { ...nested, address: { city: "Paris" } }, a])).toEqual({
      representations: [a, named, renamed, numeric, nested],
      of: [0, 1, 2, 1, 3, 3, 4, 4, 0],
    });
    // the same type and id, whatever the order of its two fields
    expect(distinctRepresentations([a, { id: "1", __typename: "Department" }, { __typename: "Employee", id: "1" }])?.of).toEqual([0, 0, 1]);
  });

  it("answer each place, an entity's error at each of its places, other errors as they were", () => {
    const distinct = distinctRepresentations([a, b, a, a])!;
    const answer = {
      data: { _entities: [{ name: "One" }, null] },
      errors: [
        { message: "b failed", path: ["_entities", 1, "name"] },
        { message: "a's manager failed", path: ["_entities", 0, "manager"] },
        { message: "no path" },
        { message: "out of range", path: ["_entities", 7] },
      ],
      http: "kept",
    };
    expect(expandEntities(answer, distinct)).toEqual({
      data: { _entities: [{ name: "One" }, null, { name: "One" }, { name: "One" }] },
      errors: [
        { message: "b failed", path: ["_entities", 1, "name"] },
        { message: "a's manager failed", path: ["_entities", 0, "manager"] },
        { message: "a's manager failed", path: ["_entities", 2, "manager"] },
        { message: "a's manager failed", path: ["_entities", 3, "manager"] },
        { message: "no path" },
        { message: "out of range", path: ["_entities", 7] },
      ],
      http: "kept",
    });
  });

  it("leave an answer that is not one entity per distinct representation as it is, for the gateway to refuse", () => {
    const distinct = distinctRepresentations([a, a, b])!;
    for (const answer of [{ data: { _entities: [{}] } }, { data: null, errors: [{ message: "x" }] }, { data: { _entities: "no" } }]) {
      expect(expandEntities(answer as never, distinct)).toBe(answer);
    }
  });
});

describe("through the gateway", () => {
  const stack = useGatewayStack();
  /** the representations of each request organisation received, whatever the batch named them */
  const sent: unknown[][] = [];
  let proxy: Server;
  let gateway: RunningGateway;
  beforeAll(async () => {
    const to = new URL(stack.subgraphs.organisation!.url);
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        const variables = (JSON.parse(body.toString() || "{}") as { variables?: Record<string, unknown> }).variables ?? {};
        for (const [name, value] of Object.entries(variables)) if (name.endsWith("representations") && Array.isArray(value)) sent.push(value);
        const upstream = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on("error", () => res.destroy());
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    gateway = await startExtraGateway(stack, { ORGANISATION_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${to.pathname}` });
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it("a hundred employees naming a few departments: each department sent once, each employee answered its own", async () => {
    sent.length = 0;
    const res = await postGraphQL(gateway.url, "{ employees(first: 100) { nodes { id applicableJobPosition { department { id name } } } } }");
    expect(res.errors).toBeUndefined();
    const departments = res.data.employees.nodes.map((n: any) => n.applicableJobPosition?.department).filter(Boolean);
    const ids = new Set(departments.map((d: any) => d.id));
    expect(departments.length).toBeGreaterThan(ids.size);
    const names = new Map(stack.directory.company.departments.map((d) => [String(d.id), d.name]));
    for (const department of departments) expect(department.name).toBe(names.get(department.id));
    const entityFetches = sent.filter((reps) => reps.some((r: any) => r.__typename === "Department"));
    expect(entityFetches.length).toBeGreaterThan(0);
    for (const reps of entityFetches) expect(new Set(reps.map((r) => JSON.stringify(r))).size).toBe(reps.length);
    expect(entityFetches.flat().filter((r: any) => r.__typename === "Department").length).toBe(ids.size);
  });
});
