import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import type { RunningSubgraph } from "../../subgraphs/shared/graphql/server.js";
import { Logger } from "../../platform/log.js";
import { Upstream, missingMembers, useExpectationLogger } from "../../subgraphs/shared/upstream/index.js";
import { loadSubgraphModule, postGraphQL, useDirectory } from "../helpers/stack.js";
import { configFor } from "./fixture.js";

/**
 * The facade's expectations of the upstream (subgraphs/shared/upstream/expectations.ts): the
 * people subgraph reads the directory through a loopback proxy that can drop a member from the
 * employees it relays, as an upstream that does not send it would. The answer must name the
 * missing member, in the GraphQL error and in a log line, instead of failing on `undefined`.
 */

const directory = useDirectory({ employees: 40, today: "2026-06-15" });
let proxy: Server;
let upstream: Upstream;
let people: RunningSubgraph;
/** the employee member the proxy removes; null: it relays bodies unchanged */
let dropped: string | null = null;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== "host" && name !== "content-length")) as Record<string, string>;
    const answer = await fetch(`${directory.url}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    let text = await answer.text();
    const out: Record<string, string> = { "content-type": answer.headers.get("content-type") ?? "application/json" };
    if (dropped !== null && answer.status === 200 && /^\/service-api\/employees(\/|\?|$)/.test(req.url ?? "")) {
      const body = JSON.parse(text);
      for (const item of Array.isArray(body.items) ? body.items : [body]) delete item[dropped];
      text = JSON.stringify(body);
    } else {
      const etag = answer.headers.get("etag");
      if (etag) out.etag = etag;
    }
    res.writeHead(answer.status, out).end(text);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  upstream = new Upstream(configFor(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, { etagCacheSize: 0 }));
  useExpectationLogger(new Logger("people", "warn", (line) => lines.push(JSON.parse(line))));
  people = await startSubgraphModule(await loadSubgraphModule("people"), { upstream, port: 0, secret: null });
});

afterAll(async () => {
  useExpectationLogger(new Logger("upstream"));
  await people?.close();
  await upstream?.close();
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
});

beforeEach(() => {
  dropped = null;
  lines.length = 0;
});

describe("the facade's expectations of the upstream", () => {
  it("relays a conforming upstream's answers untouched", async () => {
    const res = await postGraphQL(people.url, `{ employees(first: 3) { nodes { id givenName } } employee(id: "1") { givenName } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.employees.nodes).toHaveLength(3);
    expect(res.data.employee.givenName).toBe(directory.company.employees[0]!.givenName);
    expect(lines).toEqual([]);
  });

  it("names the member a list's items lack, in the error and in a log line", async () => {
    dropped = "givenName";
    const res = await postGraphQL(people.url, `{ employees(first: 3) { nodes { id givenName } } }`);
    expect(res.errors).toHaveLength(1);
    const error = res.errors![0]!;
    expect(error.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(error.message).toContain('lacks "/items/0/givenName"');
    expect(error.message).toContain("which the facade relies on");
    expect(error.message).not.toMatch(/undefined|Cannot return null/);
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: "upstream answer lacks members the facade relies on", path: "/service-api/employees", type: "employee" }),
    ]);
    expect(lines[0]!.missing).toContain("/items/0/givenName");
  });

  it("names the member an employee read by id lacks", async () => {
    dropped = "familyName";
    const res = await postGraphQL(people.url, `{ employee(id: "1") { familyName } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(res.errors?.[0]?.message).toMatch(/lacks "(\/items\/0)?\/familyName"/);
    expect(lines).toHaveLength(1);
  });

  it("names the member a single read lacks", async () => {
    dropped = "status";
    await expect(upstream.session().current.read("/employees/2")).rejects.toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      status: 200,
      detail: 'the employee representation lacks "/status", which the facade relies on',
    });
    expect(lines.map((l) => l.path)).toEqual(["/service-api/employees/2"]);
  });

  it("counts only missing members: extra members and other values pass", () => {
    const employee = {
      id: "1", type: "employee", url: "u", remoteId: null, portrait: null, givenName: "A", familyName: "B", employeeNumber: null,
      status: "retired", email: null, phoneNumber: null, birthDay: null, applicableEmployment: null, applicableJobPosition: null,
      createdAt: "2024-01-01T00:00:00Z", lastUpdatedAt: "2024-01-01T00:00:00Z", somethingNew: true,
    };
    expect(missingMembers("employee", employee)).toEqual([]);
    const { status: _status, createdAt: _createdAt, ...without } = employee;
    expect(missingMembers("employee", without).sort()).toEqual(["/createdAt", "/status"]);
    expect(missingMembers("employee", "not an object")).toEqual(["/"]);
  });
});
