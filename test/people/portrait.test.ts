import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { directoryToken, get } from "../directory/current-helpers.js";
import { counting, query, startRecordingStack, type RecordingStack } from "./helpers.js";

/**
 * `Employee.portrait.downloadUrl`: a file link of the facade (docs/security.md#file-links) sealing
 * the file address of the employee's `links.portrait`, usable without the bearer token, never that
 * address or its token; read with the employee when the employee is read by the operation itself,
 * one call per 100 employees otherwise. Here the subgraph is asked directly: its links name its own
 * `/files/` route (through the gateway, the gateway's: test/gateway/file-links.test.ts).
 */

const stack = useStack({ subgraphs: ["people"] });
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

beforeAll(async () => {
  await query(stack, `{ employee(id: "1") { id } }`);
});

/** GETs an address as a browser's <img src> would: no Authorization header. */
async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("Employee.portrait", () => {
  it("gives a link of the facade to the REST links.portrait, which serves the PNG without a bearer token, in one call", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ employee(id: "7") { portrait { id url downloadUrl } } }`));
    expect(calls.byRoute).toEqual({ "GET /service-api/employees": 1 });
    const portrait = result.employee.portrait;
    const rest = await get(stack.directory.url, await directoryToken(stack.directory.url), "/service-api/employees/7?include=links");
    expect(portrait.id).toBe(rest.body.portrait.id);
    const subgraph = new URL(stack.subgraphs.people!.url).origin;
    for (const link of [portrait.downloadUrl, portrait.url]) {
      expect(link.startsWith(`${subgraph}/files/`)).toBe(true);
      expect(link).not.toContain(new URL(stack.directory.url).host);
      expect(link).not.toMatch(/token=|service-api/);
    }

    stack.resetStats();
    const image = await download(portrait.downloadUrl);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/png");
    expect([...image.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    // the image as the directory serves it at its own address, byte for byte, in one call
    expect(image.bytes.equals((await download(new URL(rest.body.links.portrait.href, stack.directory.url).href)).bytes)).toBe(true);
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/files/{id}": 2 });
  });

  it("costs no call of its own over a page of employees, at first: 10 as at first: 100, totalCount too", async () => {
    for (const first of [10, 100]) {
      const { result, calls } = await counting(stack, () => query(stack, `{ employees(first: ${first}) { totalCount nodes { id portrait { downloadUrl } } } }`));
      expect(calls.byRoute, `first: ${first}`).toEqual({ "GET /service-api/employees": 1 });
      expect(result.employees.totalCount).toBe(stack.directory.company.employees.length);
      expect(result.employees.nodes).toHaveLength(first);
      expect(result.employees.nodes.every((e: any) => e.portrait.downloadUrl.includes("/files/"))).toBe(true);
    }
  });

  it("keeps the list's cursors whether the address is selected or not", async () => {
    const page1 = await query(stack, `{ employees(first: 3) { pageInfo { endCursor } nodes { id portrait { downloadUrl } } } }`);
    const page2 = await query(stack, `query($after: String) { employees(first: 3, after: $after) { nodes { id } } }`, { after: page1.employees.pageInfo.endCursor });
    const plain = await query(stack, `{ employees(first: 6) { nodes { id } } }`);
    expect([...page1.employees.nodes, ...page2.employees.nodes].map((e: { id: string }) => e.id)).toEqual(plain.employees.nodes.map((e: { id: string }) => e.id));
  });

  it("through an edge, reads the employees' links once per 100 employees, not per employee", async () => {
    const departments = new Map<string, number>();
    for (const p of stack.directory.company.jobPositions) if (p.departmentId) departments.set(p.departmentId, (departments.get(p.departmentId) ?? 0) + 1);
    const [department] = [...departments.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const source = (first: number) =>
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Department { employees(first: ${first}) { nodes { id portrait { downloadUrl } } } } } }`;
    for (const first of [10, 100]) {
      const { result, calls } = await counting(stack, () => query(stack, source(first), { r: [{ __typename: "Department", id: department }] }));
      const nodes = result._entities[0].employees.nodes;
      expect(nodes.length).toBeGreaterThan(1);
      expect(nodes.every((e: any) => e.portrait.downloadUrl.includes("/files/"))).toBe(true);
      // the members' page, read with its links (every list read asks them), carries the addresses
      expect(calls.byRoute["GET /service-api/employees"], `first: ${first}`).toBe(1);
    }
  });

  it("through _entities, reads the employees with their links in the calls that read them anyway", async () => {
    const ids = stack.directory.company.employees.slice(0, 150).map((e) => e.id);
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employee { id portrait { downloadUrl } } } }`, {
        r: ids.map((id) => ({ __typename: "Employee", id })),
      }),
    );
    expect(calls.byRoute).toEqual({ "GET /service-api/employees": 2 });
    expect(result._entities.every((e: any) => e.portrait.downloadUrl.includes("/files/"))).toBe(true);
  });
});

describe("include=links is asked on every list read", () => {
  let recording: RecordingStack;
  beforeAll(async () => {
    recording = await startRecordingStack();
  });
  afterAll(() => recording.close());

  it("a page is read with links whether or not downloadUrl is selected; with totalCount, both together", async () => {
    recording.clearUrls();
    await query(recording, `{ employees(first: 5) { nodes { id portrait { id } } } employee(id: "2") { portrait { id } } }`);
    const plain = recording.urls().filter((u) => u.includes("/service-api/employees"));
    expect(plain.length).toBeGreaterThan(0);
    const lists = plain.filter((u) => !/\/employees\/\d/.test(u));
    expect(lists.length).toBeGreaterThan(0);
    for (const u of lists) expect(new URL(u.split(" ")[1]!, "http://x").searchParams.get("include")).toBe("links");

    recording.clearUrls();
    await query(recording, `{ employees(first: 5) { totalCount nodes { id portrait { downloadUrl } } } }`);
    const linked = recording.urls().filter((u) => u.includes("/service-api/employees"));
    expect(linked).toHaveLength(1);
    expect(new URL(linked[0]!.split(" ")[1]!, "http://x").searchParams.get("include")!.split(",").sort()).toEqual(["links", "totalCount"]);
  });
});
