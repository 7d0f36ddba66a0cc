import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { toGraphQLError, type Upstream, type UpstreamCallEvent } from "../../subgraphs/shared/upstream/index.js";
import { upstreamError, useUpstreamFixture } from "./fixture.js";
import { directoryToken } from "../helpers/stack.js";

/**
 * "No token, key or body in messages or logs": everything the layer says about a call — the
 * error's message and GraphQL form, and the events the logs are made of — for successes and for
 * each kind of failure, searched for the credentials that were used.
 */

function recorder(upstream: Upstream) {
  const events: UpstreamCallEvent[] = [];
  const said: string[] = [];
  upstream.onCall((e) => events.push(e));
  return {
    async fails(promise: Promise<unknown>) {
      const err = await upstreamError(promise);
      said.push(err.message, JSON.stringify(toGraphQLError(err).toJSON()), JSON.stringify({ ...err }));
    },
    text: () => [...said, ...events.map((e) => JSON.stringify(e))].join("\n"),
    events,
  };
}

describe("credentials never show in errors or call events", () => {
  const fx = useUpstreamFixture({ employees: 5 });
  let id: string;
  beforeAll(async () => {
    id = fx.directory.company.employees[0]!.id;
  });
  afterEach(() => fx.directory.faults.clear());

  it("service mode: neither the client secret nor the API key, on success or failure", async () => {
    const upstream = fx.client({ retries: 0, timeoutMs: 200 });
    const rec = recorder(upstream);
    const session = upstream.session();
    await session.current.read(`/employees/${id}`);
    await session.legacy.get(`/api/v3/users/${id}`);
    await rec.fails(session.legacy.get("/api/v3/users/999999"));
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    await rec.fails(session.current.read(`/employees/${id}`));
    fx.directory.faults.set({ hangRate: 1 });
    await rec.fails(session.legacy.put(`/api/v3/timeentries/1`, { duration: "PT1H" }));
    fx.directory.faults.clear();
    await rec.fails(fx.client({ clientSecret: "wrong-client-secret" }).session().current.read(`/employees/${id}`));
    await rec.fails(fx.client({ apiKey: "wrong-api-key" }).session().legacy.get(`/api/v3/users/${id}`));
    expect(rec.events.length).toBeGreaterThanOrEqual(6);
    expect(rec.text()).not.toMatch(/demo-secret|demo-api-key|wrong-client-secret|wrong-api-key|Bearer|application=|access_token/);
  });

  it("forward mode: never the caller's token, valid or not", async () => {
    const upstream = fx.client({ auth: "forward", clientId: null, clientSecret: null, retries: 0 });
    const token = await directoryToken(fx.directory.url, "demo-limited");
    const rec = recorder(upstream);
    await upstream.session({ authorization: `Bearer ${token}` }).current.read(`/employees/${id}`);
    await rec.fails(upstream.session({ authorization: `Bearer ${token}` }).current.page("/legal-entities"));
    await rec.fails(upstream.session({ authorization: "Bearer forged-token-value" }).current.read(`/employees/${id}`));
    expect(rec.text()).not.toContain(token);
    expect(rec.text()).not.toContain("forged-token-value");
  });

  it("query strings stay out of messages and events", async () => {
    const upstream = fx.client({ retries: 0 });
    await upstream.session().current.page("/employees", { limit: 1 }); // token cached before the fault
    const rec = recorder(upstream);
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    await rec.fails(upstream.session().current.page("/employees", { search: "private-search-words" }));
    expect(rec.text()).not.toContain("private-search-words");
    expect(rec.events.map((e) => e.route)).toContain("GET /service-api/employees");
  });
});
