import { beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../directory/server.js";
import { contractBreach, requestLine } from "../helpers/contract.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";

/**
 * The contract test: every operation of operations/ through the gateway against the twin in strict
 * mode, every request the facade sends recorded by the twin's own hook (`onRequest`). Each must
 * be an operation production publishes (or the interface specifies), with published parameters
 * only (or a link production returns), and each list read the facade may follow to its next page
 * must ask `include=links`. A new undocumented request fails here.
 */

const recorded: RecordedRequest[] = [];
const stack = useGatewayStack({ directory: { strict: true, onRequest: (r) => recorded.push(r) } });
let demo: Demo;
const operations = loadOperations();

beforeAll(() => {
  demo = pickDemoData(stack.directory.company);
});

describe("every request the facade sends keeps to production's contract", () => {
  it.each(operations.map((o) => [o.name, o] as const))("%s", async (_name, operation) => {
    recorded.length = 0;
    const response = await stack.query(operation.source, variablesOf(demo, operation));
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(recorded.length).toBeGreaterThan(0);
    const breaches = recorded.map((r) => ({ request: requestLine(r), why: contractBreach(r) })).filter((b) => b.why !== null);
    expect(breaches).toEqual([]);
    // strict mode refused nothing: every request was answered as production would
    expect(recorded.filter((r) => r.status === 400 || r.status === 404)).toEqual([]);
  });
});

describe("strict mode", () => {
  it("refuses a parameter production does not publish on the path, naming it, and a path it does not publish", async () => {
    const token = await stack.token();
    const get = (path: string) => fetch(`${stack.directory.url}${path}`, { headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01" } });
    recorded.length = 0;
    // the twin's own events filter: served without strict mode, refused with it
    const topic = await get("/service-api/events?topic=employee.updated&include=links");
    expect(topic.status).toBe(400);
    expect(Object.keys(((await topic.json()) as { errors: object }).errors)).toEqual(["topic"]);
    expect((await get("/service-api/portraits?include=links")).status).toBe(404);
    expect((await get("/service-api/job-positions?employment.employee.id=1&include=links")).status).toBe(200);
    expect(recorded.map((r) => [r.route, r.status])).toEqual([
      ["GET /service-api/events", 400],
      ["GET /service-api/portraits", 404],
      ["GET /service-api/job-positions", 200],
    ]);
  });
});
