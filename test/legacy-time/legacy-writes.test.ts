import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Logger } from "../../platform/log.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { OPEN_WEEK, legacyGet, range } from "./helpers.js";

/**
 * Legacy writes and who may make them (DIRECTORY_FORWARD_LEGACY_WRITES), and the audit line
 * every write logs. The legacy API checks only the facade's key, so in forward mode the facade
 * decides: `none` (the default) refuses every legacy write before any upstream call; `readers`
 * lets a caller write what its own token can read. Service mode is unchanged. demo-limited sees
 * the employees of establishment 1 only and lacks webhook-deliveries.readwrite; demo-client sees
 * everyone and has every scope.
 */

const TIME_ENTRY = `mutation($id: ID!, $comment: String) { updateTimeEntry(id: $id, input: { comment: $comment }) { __typename ... on MutationError { message } } }`;
const LEGACY_USER = `mutation($id: ID!) { updateLegacyUser(id: $id, input: { quote: "secret quote", personalEmail: "someone@example.com" }) { __typename ... on MutationError { message } } }`;
const AXIS_SECTION = `mutation { updateAxisSection(id: "4", input: { description: "audited description" }) { __typename ... on MutationError { message } } }`;
const WEBHOOK = `mutation { triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename ... on MutationError { message } } }`;

/** the typename and message of a mutation's answer, which a refusal carries as data (docs/graph.md#mutations) */
const result = (res: { data?: any }) => Object.values(res.data ?? {})[0] as { __typename: string; message?: string } | null;

interface Setup {
  stack: Stack;
  url: string;
  orgUrl: string;
  lines: any[];
  full: Record<string, string>;
  limited: Record<string, string>;
  tokens: string[];
  visible: string[];
  hidden: string[];
}

async function setup(env: Record<string, string>): Promise<Setup> {
  const lines: any[] = [];
  const stack = await startStack({
    subgraphs: ["legacy-time", "organisation"],
    env,
    logger: new Logger("test", "info", (line) => lines.push(JSON.parse(line))),
  });
  const fullToken = await stack.token("demo-client");
  const limitedToken = await stack.token("demo-limited");
  const res = await fetch(`${stack.directory.url}/service-api/employees?id=${range(1, 100).join(",")}&limit=100`, {
    headers: { authorization: `Bearer ${limitedToken}`, "api-version": "2024-11-01" },
  });
  const seen = new Set(((await res.json()) as { items: Array<{ id: string }> }).items.map((e) => e.id));
  return {
    stack,
    url: stack.subgraphs["legacy-time"]!.url,
    orgUrl: stack.subgraphs.organisation!.url,
    lines,
    full: { authorization: `Bearer ${fullToken}` },
    limited: { authorization: `Bearer ${limitedToken}` },
    tokens: [fullToken, limitedToken],
    visible: range(1, 100).map(String).filter((id) => seen.has(id)),
    hidden: range(1, 100).map(String).filter((id) => !seen.has(id)),
  };
}

/** An entry of the open week of `ownerId`, read directly from the legacy API. */
async function openEntry(stack: Stack, ownerId: string): Promise<any> {
  const items = (await legacyGet(stack, `/api/v3/timeentries?ownerId=${ownerId}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items;
  expect(items.length).toBeGreaterThan(0);
  return items[0];
}

const audits = (s: Setup) => s.lines.filter((l) => l.audit === "write");

describe("forward mode, DIRECTORY_FORWARD_LEGACY_WRITES unset (none)", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup({ DIRECTORY_AUTH: "forward" });
  });
  afterAll(() => s?.stack.close());

  it("refuses every legacy write of a caller who sees everyone, naming the setting, with 0 upstream calls", async () => {
    const entry = await openEntry(s.stack, s.visible[0]!);
    for (const [query, variables] of [
      [TIME_ENTRY, { id: String(entry.id), comment: "x" }],
      [LEGACY_USER, { id: s.visible[0] }],
      [AXIS_SECTION, {}],
    ] as const) {
      s.stack.resetStats();
      const res = await s.stack.gql(s.url, query, variables, s.full);
      expect(res.errors).toBeUndefined();
      expect(result(res)?.__typename).toBe("ForbiddenError");
      expect(result(res)?.message).toMatch(/DIRECTORY_FORWARD_LEGACY_WRITES=readers/);
      expect(s.stack.stats().total).toBe(0);
    }
    expect((await openEntry(s.stack, s.visible[0]!)).comment).toEqual(entry.comment);
  });

  it("refuses them to a caller with partial visibility, whichever employee, and to an anonymous caller, with 0 calls", async () => {
    for (const headers of [s.limited, {}]) {
      for (const id of [s.visible[0]!, s.hidden[0]!]) {
        s.stack.resetStats();
        const res = await s.stack.gql(s.url, LEGACY_USER, { id }, headers);
        expect(result(res)?.__typename).toBe("ForbiddenError");
        expect(s.stack.stats().total).toBe(0);
      }
    }
  });

  it("refuses before looking at the input: a bad input is still a ForbiddenError with 0 calls", async () => {
    s.stack.resetStats();
    const res = await s.stack.gql(s.url, `mutation { updateTimeEntry(id: "x", input: { duration: "nonsense" }) { __typename } }`, undefined, s.full);
    expect(result(res)?.__typename).toBe("ForbiddenError");
    expect(s.stack.stats().total).toBe(0);
  });

  it("does not gate the webhook test delivery: the directory checks the caller's own scope", async () => {
    s.stack.resetStats();
    const allowed = await s.stack.gql(s.orgUrl, WEBHOOK, undefined, s.full);
    expect(allowed.data.triggerWebhookTestDelivery.__typename).toBe("WebhookDelivery");
    const refused = await s.stack.gql(s.orgUrl, WEBHOOK, undefined, s.limited);
    expect(refused.errors).toBeUndefined();
    expect(result(refused)).toMatchObject({ __typename: "ForbiddenError", message: expect.any(String) });
    expect(result(refused)?.message).not.toMatch(/service-api|POST|\/webhook-deliveries/);
    expect(s.stack.stats().byRoute).toEqual({ "POST /service-api/webhook-deliveries": 2 });
  });

  it("logs a refused write with outcome refused and its type, ForbiddenError", async () => {
    s.lines.length = 0;
    await s.stack.gql(s.url, AXIS_SECTION, undefined, s.full);
    expect(audits(s)).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "write",
        operation: "updateAxisSection",
        target: { type: "AxisSection", id: "4" },
        fields: ["description"],
        outcome: "refused",
        code: "ForbiddenError",
      }),
    ]);
  });
});

describe("forward mode, DIRECTORY_FORWARD_LEGACY_WRITES=readers", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup({ DIRECTORY_AUTH: "forward", DIRECTORY_FORWARD_LEGACY_WRITES: "readers" });
  });
  afterAll(() => s?.stack.close());

  it("lets a caller write the time entries and legacy user of an employee its token can read", async () => {
    const entry = await openEntry(s.stack, s.visible[0]!);
    const res = await s.stack.gql(s.url, TIME_ENTRY, { id: String(entry.id), comment: "by a reader" }, s.limited);
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry.__typename).toBe("TimeEntry");
    expect((await openEntry(s.stack, s.visible[0]!)).comment).toMatchObject({ content: "by a reader" });
    const user = await s.stack.gql(s.url, LEGACY_USER, { id: s.visible[0] }, s.limited);
    expect(user.data.updateLegacyUser.__typename).toBe("Employee");
  });

  it("refuses the same caller for an employee it cannot read, with no PUT", async () => {
    const entry = await openEntry(s.stack, s.hidden[0]!);
    s.stack.resetStats();
    const res = await s.stack.gql(s.url, TIME_ENTRY, { id: String(entry.id), comment: "not mine" }, s.limited);
    // what the refusal costs: the read that gives the entry's owner and the caller's view of that owner
    expect(s.stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries/{id}": 1, "GET /service-api/employees": 1 });
    const user = await s.stack.gql(s.url, LEGACY_USER, { id: s.hidden[0] }, s.limited);
    // a time entry of an owner it cannot read is one that does not exist for it (no owner named)
    expect(result(res)?.__typename).toBe("NotFoundError");
    expect(result(user)?.__typename).toBe("ForbiddenError");
    const routes = Object.keys(s.stack.stats().byRoute);
    expect(routes.filter((r) => r.startsWith("PUT"))).toEqual([]);
    expect((await openEntry(s.stack, s.hidden[0]!)).comment).toEqual(entry.comment);
  });

  it("lets a caller who sees everyone write anyone's", async () => {
    const user = await s.stack.gql(s.url, LEGACY_USER, { id: s.hidden[0] }, s.full);
    expect(user.data.updateLegacyUser.__typename).toBe("Employee");
  });

  it("lets any caller the current API accepts update an axis section, and refuses an anonymous one", async () => {
    const ok = await s.stack.gql(s.url, AXIS_SECTION, undefined, s.limited);
    expect(ok.data.updateAxisSection.__typename).toBe("AxisSection");
    s.stack.resetStats();
    const anonymous = await s.stack.gql(s.url, AXIS_SECTION);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(s.stack.stats().byRoute["PUT /api/v3/axisSections/{id}"]).toBeUndefined();
  });

  it("logs one audit line per write: operation, target, field names, outcome, caller pseudonym; no token, no value", async () => {
    s.lines.length = 0;
    await s.stack.gql(s.url, LEGACY_USER, { id: s.visible[0] }, s.limited);
    await s.stack.gql(s.url, LEGACY_USER, { id: s.hidden[0] }, s.limited);
    await s.stack.gql(s.url, LEGACY_USER, { id: s.hidden[0] }, s.full);
    await s.stack.gql(s.orgUrl, WEBHOOK, undefined, s.full);
    await s.stack.gql(s.url, `mutation { updateLegacyUser(id: "${s.visible[0]}", input: { managerId: "x" }) { __typename } }`, undefined, s.limited);
    const lines = audits(s);
    expect(lines.map((l) => [l.operation, l.target, l.outcome, l.code])).toEqual([
      ["updateLegacyUser", { type: "LegacyUser", id: s.visible[0] }, "applied", undefined],
      ["updateLegacyUser", { type: "LegacyUser", id: s.hidden[0] }, "refused", "ForbiddenError"],
      ["updateLegacyUser", { type: "LegacyUser", id: s.hidden[0] }, "applied", undefined],
      ["triggerWebhookTestDelivery", { type: "WebhookEndpoint", id: "1" }, "applied", undefined],
      ["updateLegacyUser", { type: "LegacyUser", id: s.visible[0] }, "refused", "InvalidInputError"],
    ]);
    expect(lines[0].fields).toEqual(["personalEmail", "quote"]);
    expect(lines.every((l) => l.level === "info" && l.component === "test")).toBe(true);
    // the same caller has the same pseudonym; another caller another one
    expect(lines[0].caller).toMatch(/^[0-9a-f]{16}$/);
    expect(lines[1].caller).toBe(lines[0].caller);
    expect(lines[2].caller).not.toBe(lines[0].caller);
    const text = JSON.stringify(lines);
    for (const token of s.tokens) expect(text).not.toContain(token);
    for (const value of ["secret quote", "someone@example.com", "demo-api-key", "Bearer"]) expect(text).not.toContain(value);
  });
});

describe("service mode", () => {
  let s: Setup;
  beforeAll(async () => {
    // the setting is about forward mode: in service mode it changes nothing
    s = await setup({ DIRECTORY_FORWARD_LEGACY_WRITES: "none" });
  });
  afterAll(() => s?.stack.close());

  it("writes as before, for any employee, whatever token the caller sends", async () => {
    for (const headers of [{}, s.limited]) {
      const entry = await openEntry(s.stack, s.hidden[1]!);
      const res = await s.stack.gql(s.url, TIME_ENTRY, { id: String(entry.id), comment: "service" }, headers);
      expect(res.data.updateTimeEntry.__typename).toBe("TimeEntry");
      const user = await s.stack.gql(s.url, LEGACY_USER, { id: s.hidden[1] }, headers);
      expect(user.data.updateLegacyUser.__typename).toBe("Employee");
      const section = await s.stack.gql(s.url, AXIS_SECTION, undefined, headers);
      expect(section.data.updateAxisSection.__typename).toBe("AxisSection");
    }
  });

  it("logs the facade's own client as the caller of every write", () => {
    const callers = new Set(audits(s).map((l) => l.caller));
    expect(audits(s).length).toBe(6);
    expect(callers.size).toBe(1);
  });
});

describe("the setting", () => {
  it("accepts none and readers and refuses anything else at start-up, naming the variable", () => {
    expect(loadUpstreamConfig({}).forwardLegacyWrites).toBe("none");
    expect(loadUpstreamConfig({ DIRECTORY_FORWARD_LEGACY_WRITES: "readers" }).forwardLegacyWrites).toBe("readers");
    for (const bad of ["all", "READERS", "employees.readwrite", "yes"]) {
      expect(() => loadUpstreamConfig({ DIRECTORY_FORWARD_LEGACY_WRITES: bad })).toThrow(/DIRECTORY_FORWARD_LEGACY_WRITES must be "none" or "readers"/);
    }
  });
});
