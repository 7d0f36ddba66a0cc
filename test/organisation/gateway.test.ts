import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { apiCalls } from "./helpers.js";

/**
 * The organisation's new references across subgraphs, through the gateway: an event's employee
 * (owned by people), a delivery's event, endpoint and attempts, and a job position's
 * qualification's profession; their calls do not grow from first: 10 to first: 100.
 */

const stack = useGatewayStack();

async function gql(source: string, variables: Record<string, unknown> = {}) {
  const response = await stack.query(source, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data;
}

async function cost(source: string, variables: Record<string, unknown> = {}) {
  stack.resetStats();
  const data = await gql(source, variables);
  return { data, calls: apiCalls(stack).byRoute };
}

const rest = <T = any>(path: string, q: Record<string, string> = {}) => stack.upstream.session().current.all<T>(path, q);

beforeAll(async () => {
  // deliveries to the active endpoint (whose URL refuses the connection): more than first: 10
  for (let i = 0; i < 12; i++) await gql(`mutation { triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename } }`);
});

describe("through the gateway", () => {
  it("an event's employee is the people subgraph's employee, at the same cost for first: 10 and first: 100", async () => {
    const employees = new Map((await rest("/employees")).map((e: any) => [e.id, e]));
    const events = await rest("/events");
    const source = `query($n: Int) { events(first: $n) { nodes { id topic employee { id givenName familyName } } } }`;
    const ten = await cost(source, { n: 10 });
    const hundred = await cost(source, { n: 100 });
    expect(hundred.data.events.nodes).toEqual(
      events.slice(0, 100).map((e: any) => ({
        id: e.id,
        topic: e.topic,
        employee: { id: e.data.id, givenName: employees.get(e.data.id).givenName, familyName: employees.get(e.data.id).familyName },
      })),
    );
    expect(ten.calls["GET /service-api/events"]).toBe(1);
    expect(hundred.calls).toEqual(ten.calls);
  });

  it("a delivery's event (with its employee), endpoint and attempts resolve across subgraphs, at the same cost for first: 10 and first: 100", async () => {
    const deliveries = await rest("/webhook-deliveries");
    const attempts = await rest("/webhook-delivery-attempts");
    const endpoints = new Map((await rest("/webhook-endpoints")).map((e: any) => [e.id, e]));
    const employees = new Map((await rest("/employees")).map((e: any) => [e.id, e]));
    const source = `query($n: Int) { webhookDeliveries(first: $n) { nodes { id
      event { id topic employee { id givenName } }
      webhookEndpoint { id name status }
      attempts(first: 10) { nodes { id isSuccessful } } } } }`;
    const ten = await cost(source, { n: 10 });
    const hundred = await cost(source, { n: 100 });
    expect(deliveries.length).toBeGreaterThan(10);
    for (const node of hundred.data.webhookDeliveries.nodes) {
      const d = deliveries.find((x: any) => x.id === node.id);
      const event = (await stack.upstream.session().current.read<any>(`/events/${d.event.id}`))!;
      expect(node.event).toEqual({ id: d.event.id, topic: event.topic, employee: { id: event.data.id, givenName: employees.get(event.data.id).givenName } });
      const endpoint = endpoints.get(d.webhookEndpoint.id) as any;
      expect(node.webhookEndpoint).toEqual({ id: endpoint.id, name: endpoint.name, status: endpoint.status.toUpperCase() });
      expect(node.attempts.nodes).toEqual(
        attempts.filter((a: any) => a.webhookDelivery.id === node.id).slice(0, 10).map((a: any) => ({ id: a.id, isSuccessful: a.isSuccessful })),
      );
    }
    expect(hundred.calls).toEqual(ten.calls);
    expect(ten.calls).toMatchObject({ "GET /service-api/webhook-deliveries": 1, "GET /service-api/webhook-delivery-attempts": 1, "GET /service-api/webhook-endpoints": 1 });
  });

  it("a job position's qualification's profession resolves from the people subgraph, at the same cost for first: 10 and first: 100", async () => {
    const professions = new Map((await rest("/professions")).map((p: any) => [p.id, p]));
    const qualifications = new Map((await rest("/job-qualifications")).map((q: any) => [q.id, q]));
    const positions = await rest("/job-positions");
    const source = `query($n: Int) { jobPositions(first: $n) { nodes { id jobQualification { id profession { id title } } } } }`;
    const ten = await cost(source, { n: 10 });
    const hundred = await cost(source, { n: 100 });
    expect(hundred.data.jobPositions.nodes).toEqual(
      positions.slice(0, 100).map((p: any) => {
        const q = p.jobQualification ? (qualifications.get(p.jobQualification.id) as any) : null;
        const profession = q?.profession ? (professions.get(q.profession.id) as any) : null;
        return { id: p.id, jobQualification: q ? { id: q.id, profession: profession ? { id: profession.id, title: profession.title } : null } : null };
      }),
    );
    expect(hundred.data.jobPositions.nodes.some((n: any) => n.jobQualification?.profession)).toBe(true);
    expect(hundred.calls).toEqual(ten.calls);
    expect(ten.calls["GET /service-api/professions"]).toBe(1);
  });
});
