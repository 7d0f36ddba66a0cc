import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, useStack, type Stack } from "../helpers/stack.js";
import { useFixture } from "../helpers/fixture.js";
import { directoryToken, get } from "../directory/current-helpers.js";
import { counting, query, send } from "./helpers.js";

/**
 * The portrait's metadata (`Portrait.fileName`, `contentType`, `createdAt`, `employee`) and the
 * root `portrait(id)`: what `GET /portraits/{id}` answers, read only when selected, through the
 * adaptive loader (the list has no id filter): one portrait is one single read, more are the first
 * list page then the cheaper of single reads (at most DIRECTORY_CONCURRENCY at once) or the other
 * pages; selecting only the download address keeps costing no portrait read.
 */

const stack = useStack({ subgraphs: ["people"] });

async function restPortrait(s: Stack, id: string): Promise<any> {
  const res = await get(s.directory.url, await directoryToken(s.directory.url), `/service-api/portraits/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

const METADATA = "id fileName contentType createdAt";
const asNode = (p: any) => ({ id: p.id, fileName: p.fileName, contentType: p.contentType, createdAt: p.createdAt });
/** a file link of the facade (docs/security.md#file-links), never the directory's address */
const fileLink = expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\/[A-Za-z0-9_-]+$/);

describe("portrait(id)", () => {
  it("answers what GET /portraits/{id} answers; null when it does not exist", async () => {
    const employee = stack.directory.company.employees[6]!;
    const expected = await restPortrait(stack, employee.portraitId);
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($id: ID!) { portrait(id: $id) { ${METADATA} employee { id } } missing: portrait(id: "999999") { id } }`, { id: employee.portraitId }),
    );
    expect(result).toEqual({ portrait: { ...asNode(expected), employee: { id: expected.employee.id } }, missing: null });
    expect(expected.employee.id).toBe(employee.id);
    // two ids in one batch: the first list page, then a single read for the one it lacks (cheaper than two more pages)
    expect(calls.byRoute).toEqual({ "GET /service-api/portraits": 1, "GET /service-api/portraits/{id}": 1 });
    // one id alone: one single read; the employee's id is in the portrait's reference
    const alone = await counting(stack, () => query(stack, `query($id: ID!) { portrait(id: $id) { createdAt employee { id } } }`, { id: employee.portraitId }));
    expect(alone.result.portrait).toEqual({ createdAt: expected.createdAt, employee: { id: employee.id } });
    expect(alone.calls.byRoute).toEqual({ "GET /service-api/portraits/{id}": 1 });
  });

  it("its employee and download address come through the employee loader, in one more call", async () => {
    const employee = stack.directory.company.employees[3]!;
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($id: ID!) { portrait(id: $id) { fileName downloadUrl employee { id givenName portrait { id downloadUrl } } } }`, { id: employee.portraitId }),
    );
    const linked = await get(stack.directory.url, await directoryToken(stack.directory.url), `/service-api/employees/${employee.id}?include=links`);
    expect(result.portrait).toEqual({
      fileName: `portrait-${employee.portraitId}.png`,
      downloadUrl: fileLink,
      employee: { id: employee.id, givenName: linked.body.givenName, portrait: { id: employee.portraitId, downloadUrl: fileLink } },
    });
    expect(calls.byRoute).toEqual({ "GET /service-api/portraits/{id}": 1, "GET /service-api/employees": 1 });
  });
});

describe("Employee.portrait metadata", () => {
  it("compares with GET /portraits/{id}; the employee reached back costs nothing", async () => {
    const { result } = await counting(stack, () => query(stack, `{ employees(first: 5) { nodes { id portrait { ${METADATA} employee { id familyName } } } } }`));
    for (const node of result.employees.nodes) {
      const expected = await restPortrait(stack, node.portrait.id);
      expect(node.portrait).toEqual({ ...asNode(expected), employee: { id: node.id, familyName: expect.any(String) } });
      expect(expected.employee.id).toBe(node.id);
    }
  });

  it("costs the same at first: 10 and first: 100: the employees' page and one page of portraits", async () => {
    for (const first of [10, 100]) {
      const { result, calls } = await counting(stack, () => query(stack, `query($n: Int) { employees(first: $n) { nodes { portrait { fileName contentType createdAt } } } }`, { n: first }));
      expect(result.employees.nodes).toHaveLength(first);
      expect(result.employees.nodes.every((n: any) => n.portrait.contentType === "image/png")).toBe(true);
      // the three fields share the read; the portraits of the first 100 employees are on the first page
      expect(calls.byRoute, `first: ${first}`).toEqual({ "GET /service-api/employees": 1, "GET /service-api/portraits": 1 });
    }
  });

  it("selecting only url, id or downloadUrl reads no portrait, at first: 10 as at first: 100", async () => {
    for (const first of [10, 100]) {
      const { calls } = await counting(stack, () => query(stack, `query($n: Int) { employees(first: $n) { nodes { portrait { id url downloadUrl employee { id } } } } }`, { n: first }));
      expect(calls.byRoute, `first: ${first}`).toEqual({ "GET /service-api/employees": 1 });
    }
  });

  it("through _entities: never more portrait calls than the list has pages, whatever the number of employees", async () => {
    const employees = stack.directory.company.employees;
    const pages = Math.ceil(employees.length / 100);
    expect(pages).toBe(3);
    const cost = async (n: number) => {
      const wanted = employees.slice(0, n);
      const { result, calls } = await counting(stack, () =>
        query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employee { id portrait { createdAt } } } }`, {
          r: wanted.map((e) => ({ __typename: "Employee", id: e.id })),
        }),
      );
      expect(result._entities.map((e: any) => e.id)).toEqual(wanted.map((e) => e.id));
      expect(result._entities.every((e: any) => typeof e.portrait.createdAt === "string")).toBe(true);
      return calls.byRoute;
    };
    expect(await cost(10)).toEqual({ "GET /service-api/employees": 1, "GET /service-api/portraits": 1 });
    expect(await cost(100)).toEqual({ "GET /service-api/employees": 1, "GET /service-api/portraits": 1 });
    // 50 portraits beyond the first page: the two remaining pages are cheaper than 50 single reads
    expect(await cost(150)).toEqual({ "GET /service-api/employees": 2, "GET /service-api/portraits": pages });
    expect(await cost(employees.length)).toEqual({ "GET /service-api/employees": pages, "GET /service-api/portraits": pages });
  });
});

describe("bad inputs", () => {
  it("are refused as BAD_USER_INPUT before any upstream call", async () => {
    const cases = [
      `{ portrait(id: "") { id } }`,
      `{ portrait(id: "../employees") { id } }`,
      `{ portrait(id: "1,2") { id } }`,
      `{ portrait(id: "${"7".repeat(200)}") { fileName } }`,
      `{ employees(first: 101) { nodes { portrait { fileName } } } }`,
      `{ employees(first: -1) { nodes { portrait { fileName } } } }`,
      `{ employees(after: "forged.cursor") { nodes { portrait { fileName } } } }`,
    ];
    for (const source of cases) {
      const { result, calls } = await counting(stack, () => send(stack, source));
      expect(result.errors?.[0]?.extensions?.code, source).toBe("BAD_USER_INPUT");
      expect(calls.total, source).toBe(0);
    }
  });
});

describe("the single reads are bounded by DIRECTORY_CONCURRENCY", () => {
  // a proxy in front of the directory that counts the portrait reads in flight at once
  let proxy: Server;
  let inFlight = 0;
  let peak = 0;
  let bounded: Stack;

  beforeAll(async () => {
    let target: URL | null = null;
    proxy = createServer((req, res) => {
      const counted = (req.url ?? "").startsWith("/service-api/portraits/");
      if (counted) peak = Math.max(peak, ++inFlight);
      const upstream = request({ host: target!.hostname, port: target!.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("end", () => {
          if (counted) inFlight--;
        });
      });
      upstream.on("error", () => {
        if (counted) inFlight--;
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    // 2000 employees: 20 pages of portraits, so that 15 portraits past the first page are cheaper as single reads
    bounded = await startStack({ subgraphs: ["people"], directory: { employees: 2000 }, env: { DIRECTORY_BASE_URL: proxyUrl, DIRECTORY_CONCURRENCY: "3" } });
    target = new URL(bounded.directory.url);
    // each call takes a while, so that reads not bounded would overlap
    await fetch(`${bounded.directory.url}/_admin/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ latencyMs: 30 }) });
  });
  afterAll(async () => {
    await bounded.close();
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it("15 portraits past the first page: the first page and 15 single reads, never more than 3 at once", async () => {
    const wanted = bounded.directory.company.employees.slice(1000, 1015);
    const { result, calls } = await counting(bounded, () =>
      query(bounded, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employee { portrait { id fileName } } } }`, {
        r: wanted.map((e) => ({ __typename: "Employee", id: e.id })),
      }),
    );
    expect(result._entities.map((e: any) => e.portrait)).toEqual(wanted.map((e) => ({ id: e.portraitId, fileName: `portrait-${e.portraitId}.png` })));
    expect(calls.byRoute).toEqual({ "GET /service-api/employees": 1, "GET /service-api/portraits": 1, "GET /service-api/portraits/{id}": 15 });
    expect(peak).toBe(3);
  }, 30_000);
});

describe("visibility (forward mode)", () => {
  const forward = useFixture("a forward-mode stack", () => startStack({ subgraphs: ["people"], env: { DIRECTORY_AUTH: "forward" } }));

  it("a portrait of an employee the caller may not see is null; a visible one is served", async () => {
    const limited = await forward.token("demo-limited");
    const visible = new Set<string>();
    let url: string | null = `${forward.directory.url}/service-api/employees?limit=100`;
    while (url) {
      const body: any = await (await fetch(url, { headers: { authorization: `Bearer ${limited}`, "api-version": "2024-11-01" } })).json();
      for (const e of body.items) visible.add(e.id);
      url = body.links?.next?.href ?? null;
    }
    const employees = forward.directory.company.employees;
    const hidden = employees.find((e) => !visible.has(e.id))!;
    const shown = employees.find((e) => visible.has(e.id))!;
    expect(hidden).toBeDefined();
    const response = await forward.gql(
      forward.subgraphs.people!.url,
      `query($h: ID!, $s: ID!) { hidden: portrait(id: $h) { id } shown: portrait(id: $s) { id fileName employee { id } } }`,
      { h: hidden.portraitId, s: shown.portraitId },
      { authorization: `Bearer ${limited}` },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ hidden: null, shown: { id: shown.portraitId, fileName: `portrait-${shown.portraitId}.png`, employee: { id: shown.id } } });
  });
});
