import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { collect, gatewaySse, publishUntil, until } from "../helpers/subscriptions.js";

/**
 * Forward mode (DIRECTORY_AUTH=forward), subscriptions through the gateway (gateway/subscriptions.ts):
 * a caller hears nothing of a record it cannot read, not even the attributes a deletion's event
 * carries; and a token the directory refuses at an event's read ends the caller's subscriptions
 * with UNAUTHENTICATED rather than leave them open, hiding updates and still telling deletions.
 */

const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" }, gatewayEnv: { GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "0" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  stack.directory.faults.clear();
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (topic: string, resourceId: string, establishmentId: string, previousAttributes: Record<string, unknown> | null): DirectoryChange => ({
  id: `forward-${++seq}-${Date.now()}`,
  topic,
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: [establishmentId],
  previousAttributes,
});

/** an employee of establishment 2, which demo-limited (establishment 1 only) cannot read */
let hiddenId = "";
let visibleId = "";
beforeAll(async () => {
  const token = await stack.token("demo-client");
  const of = async (establishment: string) => {
    const answer = await stack.query(`{ employees(first: 1, filter: { businessEstablishmentIds: ["${establishment}"] }) { nodes { id } } }`, {}, { authorization: `Bearer ${token}` });
    return answer.data.employees.nodes[0].id as string;
  };
  hiddenId = await of("2");
  visibleId = await of("1");
});

const SELECTION = `eventId topic id previousAttributes employee { id givenName }`;

describe("a deletion of a record the caller cannot read", () => {
  it("tells its id and topic, not the attributes it had", async () => {
    const limited = await stack.token("demo-limited");
    const sub = collect((sink) => gatewaySse(stack.gateway.url, disposers, { authorization: `Bearer ${limited}` }).subscribe({ query: `subscription { employeeChanged(ids: ["${hiddenId}", "${visibleId}"]) { ${SELECTION} } }` }, sink));
    // the subscription is set up once an update of a readable record is heard
    await publishUntil(stack.feed, () => change("employee.updated", visibleId, "1", { first_name: "Before" }), () => sub.results.length > 0);
    expect(sub.results[0].data.employeeChanged.previousAttributes).toEqual({ first_name: "Before" });
    // an update of the hidden record is not delivered at all (as before)
    await stack.feed.publish(change("employee.updated", hiddenId, "2", { first_name: "Hidden" }));
    const deletion = change("employee.deleted", hiddenId, "2", { first_name: "Secret", last_name: "Person", email: "secret.person@example.com" });
    await stack.feed.publish(deletion);
    await until(() => sub.results.some((r) => r.data?.employeeChanged?.eventId === deletion.id), 30_000);
    const told = sub.results.find((r) => r.data?.employeeChanged?.eventId === deletion.id);
    // before: previousAttributes { first_name: "Secret", last_name: "Person", email: … } reached demo-limited
    expect(told.data.employeeChanged).toEqual({ eventId: deletion.id, topic: "employee.deleted", id: hiddenId, previousAttributes: null, employee: null });
    expect(JSON.stringify(sub.results)).not.toMatch(/Secret|Hidden|secret\.person/);
  }, 60_000);
});

describe("a token the directory refuses at an event's read", () => {
  it("ends the caller's subscriptions with UNAUTHENTICATED, after which nothing is told", async () => {
    const token = await stack.token("demo-client");
    const headers = { authorization: `Bearer ${token}` };
    const first = collect((sink) => gatewaySse(stack.gateway.url, disposers, headers).subscribe({ query: `subscription { employeeChanged(ids: ["${visibleId}"]) { ${SELECTION} } }` }, sink));
    // another subscription of the same caller (another group of its hub): it ends too
    const second = collect((sink) => gatewaySse(stack.gateway.url, disposers, headers).subscribe({ query: `subscription { employeeChanged(ids: ["${visibleId}"]) { eventId } }` }, sink));
    await publishUntil(stack.feed, () => change("employee.updated", visibleId, "1", { first_name: "Before" }), () => first.results.length > 0 && second.results.length > 0);
    // the directory now answers 401 for the token (as for a revoked or expired one)
    stack.directory.faults.set({ errorRate: 1, errorStatus: 401 });
    stack.resetStats();
    await stack.feed.publish(change("employee.updated", visibleId, "1", { first_name: "Revoked" }));
    // before: the subscriptions stayed open, the update hidden (node null), and a later deletion still delivered
    await until(() => first.complete && second.complete, 30_000);
    // publishUntil may have sent "Before" more than once, and a copy can arrive after the first was
    // heard: the error is the last result, and what came before it is all "Before"
    const ended = first.results.findIndex((r) => r.errors !== undefined);
    expect(first.results.slice(ended)).toHaveLength(1);
    expect(first.results[ended].errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(first.results.slice(0, ended).map((r) => r.data.employeeChanged.previousAttributes)).toEqual(Array(ended).fill({ first_name: "Before" }));
    expect(second.results.at(-1).errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(JSON.stringify(first.results)).not.toContain("Revoked");
    // the one event's read, shared by both groups' credentials: one refused call (the refused token is then remembered)
    expect(stack.stats().total).toBeLessThanOrEqual(2);
    stack.resetStats();
    await stack.feed.publish(change("employee.deleted", visibleId, "1", null));
    await new Promise((r) => setTimeout(r, 200));
    expect(first.results.slice(ended)).toHaveLength(1);
    expect(stack.stats().total).toBe(0);
  }, 60_000);
});
