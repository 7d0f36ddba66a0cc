import { beforeAll, describe, expect, it } from "vitest";
import { COLD_REFERENCES, startStack, useStack, type Stack } from "../helpers/stack.js";
import { useFixture } from "../helpers/fixture.js";
import { attemptAsNode, counting, query, send } from "./helpers.js";

/**
 * The webhook reads: endpoints, events, deliveries and their attempts, compared with direct REST
 * reads of the in-process directory; their references and edges cost the same at first: 10 and
 * first: 100; scopes and visibility null what the caller may not read.
 */

const stack = useStack({ subgraphs: ["organisation"] });
const rest = <T = any>(s: Stack, path: string, q: Record<string, string> = {}) => s.upstream.session().current.all<T>(path, q);

const TRIGGER = `mutation($id: ID!) { triggerWebhookTestDelivery(webhookEndpointId: $id) { __typename } }`;

beforeAll(async () => {
  // more deliveries than the demo's three (to the active endpoint, whose URL refuses the connection)
  for (let i = 0; i < 12; i++) await query(stack, TRIGGER, { id: "1" });
});

describe("webhook endpoints", () => {
  it("the list, its status filter and the single read answer what the directory serves", async () => {
    const expected = await rest(stack, "/webhook-endpoints");
    const data = await query(stack, `{ webhookEndpoints(first: 100) { nodes { id name apiVersion webhookUrl topics status createdAt lastUpdatedAt } } }`);
    expect(data.webhookEndpoints.nodes).toEqual(
      expected.map((e: any) => ({
        id: e.id,
        name: e.name,
        apiVersion: e.apiVersion,
        webhookUrl: e.webhookUrl,
        topics: e.topics,
        status: e.status.toUpperCase(),
        createdAt: e.createdAt,
        lastUpdatedAt: e.lastUpdatedAt,
      })),
    );
    for (const status of ["active", "inactive"]) {
      const ids = (await rest(stack, "/webhook-endpoints", { status })).map((e: any) => e.id);
      expect(ids.length).toBeGreaterThan(0);
      const filtered = await query(stack, `query($s: [WebhookEndpointStatus!]) { webhookEndpoints(filter: { statuses: $s }) { nodes { id } } }`, { s: [status.toUpperCase()] });
      expect(filtered.webhookEndpoints.nodes.map((n: any) => n.id)).toEqual(ids);
    }
    const none = await query(stack, `{ webhookEndpoints(filter: { applicationIds: ["app-1"] }) { nodes { id } } }`);
    expect(none.webhookEndpoints.nodes).toEqual([]);
    const single = await query(stack, `{ webhookEndpoint(id: "2") { id status } missing: webhookEndpoint(id: "999") { id } }`);
    expect(single).toEqual({ webhookEndpoint: { id: "2", status: "INACTIVE" }, missing: null });
  });

  it("an endpoint's deliveries are those of the webhookEndpoint.id filter, one call for every endpoint", async () => {
    const deliveries = await rest(stack, "/webhook-deliveries");
    const { result, calls } = await counting(stack, () => query(stack, `{ webhookEndpoints { nodes { id deliveries(first: 100) { nodes { id status } } } } }`));
    for (const node of result.webhookEndpoints.nodes) {
      expect(node.deliveries.nodes).toEqual(
        deliveries.filter((d: any) => d.webhookEndpoint.id === node.id).map((d: any) => ({ id: d.id, status: d.status.toUpperCase() })),
      );
    }
    expect(calls.byRoute).toEqual({ "GET /service-api/webhook-endpoints": 1, "GET /service-api/webhook-deliveries": 1 });
  });
});

describe("events", () => {
  it("the list, the single read and the status filter answer what the directory serves", async () => {
    const expected = await rest(stack, "/events");
    const data = await query(stack, `{ events(first: 100) { totalCount nodes { id topic occurredAt apiVersion previousAttributes employee { id } businessEstablishment { id } } } }`);
    expect(data.events.totalCount).toBe(expected.length);
    expect(data.events.nodes).toEqual(
      expected.slice(0, 100).map((e: any) => ({
        id: e.id,
        topic: e.topic,
        occurredAt: e.occurredAt,
        apiVersion: e.apiVersion,
        previousAttributes: e.previousAttributes,
        employee: { id: e.data.id },
        businessEstablishment: e.businessEstablishment ? { id: e.businessEstablishment.id } : null,
      })),
    );
    const one = expected[5];
    const single = await query(stack, `query($id: ID!) { event(id: $id) { id topic } missing: event(id: "999999") { id } }`, { id: one.id });
    expect(single).toEqual({ event: { id: one.id, topic: one.topic }, missing: null });
    for (const status of ["delivered", "scheduled", "failed"]) {
      const ids = (await rest(stack, "/events", { status })).map((e: any) => e.id);
      const filtered = await query(stack, `query($s: [EventDeliveryStatus!]) { events(first: 100, filter: { deliveryStatuses: $s }) { nodes { id } } }`, {
        s: [status.toUpperCase()],
      });
      expect(filtered.events.nodes.map((n: any) => n.id), status).toEqual(ids);
    }
  });

  it("an event's establishment is read through the establishment loader: the same calls at first: 10 and first: 100", async () => {
    const cost = async (first: number) =>
      (await counting(stack, () => query(stack, `query($n: Int) { events(first: $n) { nodes { businessEstablishment { name } employee { id } } } }`, { n: first }))).calls
        .byRoute;
    const ten = await cost(10);
    expect(ten["GET /service-api/events"]).toBe(1);
    expect(Object.values(ten).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2);
    expect(await cost(100)).toEqual(ten);
  });
});

describe("webhook deliveries", () => {
  it("the list, its filter and the single read answer what the directory serves", async () => {
    const expected = await rest(stack, "/webhook-deliveries");
    expect(expected.length).toBeGreaterThan(10);
    const data = await query(stack, `{ webhookDeliveries(first: 100) { nodes { id status attemptsCount nextAttemptAt eventTopic event { id } webhookEndpoint { id } } } }`);
    expect(data.webhookDeliveries.nodes).toEqual(
      expected.map((d: any) => ({
        id: d.id,
        status: d.status.toUpperCase(),
        attemptsCount: d.attemptsCount,
        nextAttemptAt: d.nextAttemptAt,
        eventTopic: d.event.type,
        event: { id: d.event.id },
        webhookEndpoint: { id: d.webhookEndpoint.id },
      })),
    );
    const toTwo = (await rest(stack, "/webhook-deliveries", { "webhookEndpoint.id": "2" })).map((d: any) => d.id);
    const filtered = await query(stack, `{ webhookDeliveries(first: 100, filter: { webhookEndpointIds: ["2"] }) { nodes { id } } }`);
    expect(filtered.webhookDeliveries.nodes.map((n: any) => n.id)).toEqual(toTwo);
    const single = await query(stack, `{ webhookDelivery(id: "3") { id status } missing: webhookDelivery(id: "999") { id } }`);
    expect(single).toEqual({ webhookDelivery: { id: "3", status: expected[2].status.toUpperCase() }, missing: null });
  });

  it("a delivery's event, endpoint and attempts are the ones the directory names", async () => {
    const deliveries = await rest(stack, "/webhook-deliveries");
    const attempts = await rest(stack, "/webhook-delivery-attempts");
    const data = await query(
      stack,
      `{ webhookDeliveries(first: 20) { nodes { id event { id topic } webhookEndpoint { id name }
        attempts(first: 20) { totalCount nodes { id isSuccessful responseStatusCode errorResponseBody signature createdAt } } } } }`,
    );
    const endpoints = new Map((await rest(stack, "/webhook-endpoints")).map((e: any) => [e.id, e]));
    for (const node of data.webhookDeliveries.nodes) {
      const d = deliveries.find((x: any) => x.id === node.id);
      const event = (await stack.upstream.session().current.read<any>(`/events/${d.event.id}`))!;
      expect(node.event).toEqual({ id: d.event.id, topic: event.topic });
      expect(node.webhookEndpoint).toEqual({ id: d.webhookEndpoint.id, name: (endpoints.get(d.webhookEndpoint.id) as any).name });
      const mine = attempts.filter((a: any) => a.webhookDelivery.id === node.id);
      expect(node.attempts.totalCount).toBe(mine.length);
      expect(node.attempts.nodes).toEqual(
        mine.map(attemptAsNode),
      );
    }
    expect(data.webhookDeliveries.nodes.find((n: any) => n.id === "3").attempts.nodes).toHaveLength(5);
  });

  it("the events, endpoints and attempts of many deliveries cost the same at first: 10 and first: 100", async () => {
    const cost = async (first: number) =>
      (
        await counting(stack, () =>
          query(stack, `query($n: Int) { webhookDeliveries(first: $n) { nodes { event { topic } webhookEndpoint { name } attempts { nodes { isSuccessful } } } } }`, { n: first }),
        )
      ).calls.byRoute;
    const ten = await cost(10);
    expect(ten).toMatchObject({
      "GET /service-api/webhook-deliveries": 1,
      "GET /service-api/webhook-endpoints": 1,
      "GET /service-api/webhook-delivery-attempts": 1,
    });
    expect(await cost(100)).toEqual(ten);
  });

  it("the delivery a test delivery answers is an entity the gateway can resolve", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on WebhookDelivery { id status } ... on Event { id topic } ... on WebhookEndpoint { id endpointStatus: status } } }`, {
        r: [
          { __typename: "WebhookDelivery", id: "1" },
          { __typename: "WebhookDelivery", id: "999" },
          { __typename: "WebhookEndpoint", id: "1" },
          { __typename: "Event", id: "2" },
        ],
      }),
    );
    expect(result._entities).toEqual([{ id: "1", status: "DELIVERED" }, null, { id: "1", endpointStatus: "ACTIVE" }, { id: "2", topic: "employee.created" }]);
    expect(calls.total).toBeLessThanOrEqual(4);
  });

  it("bad inputs are refused before any upstream call", async () => {
    const cases = [
      `{ webhookDelivery(id: "") { id } }`,
      `{ event(id: "../employees") { id } }`,
      `{ webhookEndpoint(id: "${"9".repeat(200)}") { id } }`,
      `{ webhookDeliveries(filter: { webhookEndpointIds: [""] }) { nodes { id } } }`,
      `{ webhookDeliveries(filter: { webhookEndpointIds: [${Array.from({ length: 101 }, (_, i) => `"${i + 1}"`).join(",")}] }) { nodes { id } } }`,
      `{ webhookEndpoints(filter: { statuses: [${Array.from({ length: 101 }, () => "ACTIVE").join(",")}] }) { nodes { id } } }`,
      `{ events(first: 101) { nodes { id } } }`,
      `{ webhookDeliveries(first: 1) { nodes { attempts(first: 500) { nodes { id } } } } }`,
      `{ webhookEndpoints(first: 1) { nodes { deliveries(after: "forged.cursor") { nodes { id } } } } }`,
    ];
    for (const source of cases) {
      const { result, calls } = await counting(stack, () => send(stack, source));
      expect(result.errors?.[0]?.extensions?.code, source).toBe("BAD_USER_INPUT");
      expect(calls.total, source).toBe(0);
    }
    for (const source of [`{ events(filter: { deliveryStatuses: [SENT] }) { nodes { id } } }`, `{ webhookEndpoints(filter: { statuses: [active] }) { nodes { id } } }`]) {
      const { result, calls } = await counting(stack, () => send(stack, source));
      expect(result.errors?.[0]?.extensions?.code, source).toBe("GRAPHQL_VALIDATION_FAILED");
      expect(calls.total, source).toBe(0);
    }
  });
});

describe("scopes and visibility (forward mode)", () => {
  const CLIENTS = {
    // deliveries only: no events, no endpoints
    "deliveries-only": { secret: "s", scopes: ["webhook-deliveries.readonly"], visibleEstablishmentIds: null },
    // events and deliveries, but only the employees of establishment 1
    "site-one": { secret: "s", scopes: ["webhook-deliveries.readonly", "events.readonly", "webhook-endpoints.readonly"], visibleEstablishmentIds: ["1"] },
  };
  const forward = useFixture("a forward-mode stack", () =>
    startStack({ subgraphs: ["organisation"], env: { ...COLD_REFERENCES, DIRECTORY_AUTH: "forward" }, directory: { clients: CLIENTS } as never }),
  );

  async function token(clientId: string): Promise<string> {
    const res = await fetch(`${forward.directory.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientId === "demo-client" ? "demo-secret" : "s" }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }
  const ask = async (clientId: string, source: string, variables: Record<string, unknown> = {}) =>
    forward.gql(forward.subgraphs.organisation!.url, source, variables, { authorization: `Bearer ${await token(clientId)}` });

  async function restAs(clientId: string, path: string): Promise<any[]> {
    const items: any[] = [];
    let url: string | null = `${forward.directory.url}/service-api${path}?limit=100&include=links`;
    const headers = { authorization: `Bearer ${await token(clientId)}`, "api-version": "2024-11-01" };
    while (url) {
      const body: any = await (await fetch(url, { headers })).json();
      items.push(...body.items);
      url = body.links?.next?.href ?? null;
    }
    return items;
  }

  it("a delivery's event and endpoint are null with FORBIDDEN for a caller without their scopes; the delivery itself is served", async () => {
    const response = await ask("deliveries-only", `{ webhookDelivery(id: "1") { id status eventTopic event { topic } webhookEndpoint { name } attempts { nodes { id } } } }`);
    expect(response.data?.webhookDelivery).toMatchObject({ id: "1", status: "DELIVERED", eventTopic: "employee.created", event: null, webhookEndpoint: null });
    expect(response.data?.webhookDelivery.attempts.nodes.length).toBeGreaterThan(0);
    expect(response.errors?.map((e) => e.extensions?.code).sort()).toEqual(["FORBIDDEN", "FORBIDDEN"]);
  });

  it("an event about an employee the caller may not see is null without an error, and left out of the list", async () => {
    const all = await restAs("site-one", "/events");
    const visible = new Set(all.map((e) => e.id));
    const everyEvent = (await restAs("demo-client", "/events")).map((e: any) => e.id);
    const hidden = everyEvent.find((id: string) => !visible.has(id))!;
    const shown = everyEvent.find((id: string) => visible.has(id))!;
    expect(hidden).toBeDefined();
    expect(shown).toBeDefined();
    const response = await ask("site-one", `query($h: ID!, $s: ID!) { hidden: event(id: $h) { id employee { id } } shown: event(id: $s) { id employee { id } } }`, { h: hidden, s: shown });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ hidden: null, shown: { id: shown, employee: { id: all.find((e) => e.id === shown).data.id } } });
    const list = await ask("site-one", `{ events(first: 100) { totalCount nodes { id } } }`);
    expect(list.errors).toBeUndefined();
    expect(list.data.events.totalCount).toBe(all.length);
    expect(list.data.events.nodes.map((n: any) => n.id)).toEqual(all.slice(0, 100).map((e) => e.id));
  });
});
