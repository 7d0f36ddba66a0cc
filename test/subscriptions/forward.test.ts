import { afterEach, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { collect, gatewaySse, until } from "../helpers/subscriptions.js";

/**
 * DIRECTORY_AUTH=forward: a subscriber hears only of the records its own token may read (the
 * demo-limited client sees establishment 1 only); an event of another record is not delivered.
 */

const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (resourceId: string): DirectoryChange => ({
  id: `fwd-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: [],
  previousAttributes: { first_name: "Secret" },
});

function sse(query: string, headers: Record<string, string>) {
  return collect((sink) => gatewaySse(stack.gateway.url, disposers, headers).subscribe({ query }, sink));
}

describe("subscriptions in forward mode", () => {
  it("refuses a subscription without credentials", async () => {
    const sub = sse(`subscription { employeeChanged { id } }`, {});
    await until(() => sub.results.length > 0 || sub.error !== null);
    expect(JSON.stringify(sub.results[0] ?? sub.error)).toContain("UNAUTHENTICATED");
  });

  it("delivers a change of a record the caller may read, and hides one it may not", async () => {
    const full = `Bearer ${await stack.token("demo-client")}`;
    const limited = `Bearer ${await stack.token("demo-limited")}`;
    const readable = async (authorization: string, id: string) => ((await stack.query(`{ employee(id: "${id}") { id } }`, {}, { authorization })).data?.employee ?? null) !== null;
    let visible: string | null = null;
    let hidden: string | null = null;
    for (let id = 1; id <= 60 && (visible === null || hidden === null); id++) {
      const [byFull, byLimited] = [await readable(full, String(id)), await readable(limited, String(id))];
      if (byFull && byLimited) visible ??= String(id);
      if (byFull && !byLimited) hidden ??= String(id);
    }
    expect(visible).not.toBeNull();
    expect(hidden).not.toBeNull();
    const sub = sse(`subscription { employeeChanged { id previousAttributes employee { id givenName } } }`, { authorization: limited });
    // the hidden record first, each time: the visible one is only heard after it
    for (let i = 0; i < 200 && sub.results.length === 0; i++) {
      await stack.feed.publish(change(hidden!));
      await stack.feed.publish(change(visible!));
      await new Promise((r) => setTimeout(r, 30));
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(sub.results.length).toBeGreaterThan(0);
    expect(sub.results.map((r) => r.data.employeeChanged.id).every((id) => id === visible)).toBe(true);
    expect(sub.results[0].data.employeeChanged.employee.id).toBe(visible);
  });
});
