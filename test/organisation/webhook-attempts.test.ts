import { beforeAll, describe, expect, it } from "vitest";
import { startStack, useStack, type Stack } from "../helpers/stack.js";
import { useFixture } from "../helpers/fixture.js";
import { attemptAsNode, counting, query, representations, send } from "./helpers.js";

/**
 * The reads of webhook delivery attempts of their own (`GET /webhook-delivery-attempts[/{id}]`):
 * the root single read and connection, the attempt's delivery and the attempt as an entity,
 * compared with direct REST reads of the in-process directory; the same upstream calls at
 * first: 10 and first: 100; bad inputs refused before any call; the scope webhook-deliveries.
 */

const stack = useStack({ subgraphs: ["organisation"] });
const rest = <T = any>(s: Stack, path: string, q: Record<string, string> = {}) => s.upstream.session().current.all<T>(path, q);

const TRIGGER = `mutation($id: ID!) { triggerWebhookTestDelivery(webhookEndpointId: $id) { __typename } }`;
const FIELDS = "id isSuccessful responseStatusCode errorResponseBody signature createdAt";

beforeAll(async () => {
  // more than 100 attempts (one per test delivery to the active endpoint, whose URL refuses the connection)
  for (let i = 0; i < 110; i++) await query(stack, TRIGGER, { id: "1" });
  expect((await rest(stack, "/webhook-delivery-attempts")).length).toBeGreaterThan(100);
}, 60_000);

describe("webhookDeliveryAttempts", () => {
  it("pages through what the directory lists, with its totalCount, in one call per page", async () => {
    const expected = await rest(stack, "/webhook-delivery-attempts");
    const { result, calls } = await counting(stack, () => query(stack, `{ webhookDeliveryAttempts(first: 100) { totalCount pageInfo { hasNextPage endCursor } nodes { ${FIELDS} } } }`));
    expect(calls.byRoute).toEqual({ "GET /service-api/webhook-delivery-attempts": 1 });
    expect(result.webhookDeliveryAttempts.totalCount).toBe(expected.length);
    expect(result.webhookDeliveryAttempts.nodes).toEqual(expected.slice(0, 100).map(attemptAsNode));
    expect(result.webhookDeliveryAttempts.pageInfo.hasNextPage).toBe(true);
    const next = await query(stack, `query($after: String) { webhookDeliveryAttempts(first: 100, after: $after) { pageInfo { hasNextPage } nodes { id } } }`, {
      after: result.webhookDeliveryAttempts.pageInfo.endCursor,
    });
    expect(next.webhookDeliveryAttempts.nodes.map((n: any) => n.id)).toEqual(expected.slice(100, 200).map((a: any) => a.id));
  });

  it("the webhookDeliveryIds filter is the REST webhookDelivery.id filter", async () => {
    const ids = ["3", "2", "999"];
    const expected = await rest(stack, "/webhook-delivery-attempts", { "webhookDelivery.id": ids.join(",") });
    expect(expected.length).toBeGreaterThan(5);
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($ids: [ID!]) { webhookDeliveryAttempts(first: 100, filter: { webhookDeliveryIds: $ids }) { totalCount nodes { ${FIELDS} } } }`, { ids }),
    );
    expect(calls.total).toBe(1);
    expect(result.webhookDeliveryAttempts.totalCount).toBe(expected.length);
    expect(result.webhookDeliveryAttempts.nodes).toEqual(expected.map(attemptAsNode));
    const none = await query(stack, `{ webhookDeliveryAttempts(filter: { webhookDeliveryIds: ["999"] }) { totalCount nodes { id } } }`);
    expect(none.webhookDeliveryAttempts).toEqual({ totalCount: 0, nodes: [] });
  });

  it("an attempt's delivery is the one the directory names, read through the delivery loader: the same calls at first: 10 and first: 100", async () => {
    const deliveries = new Map((await rest(stack, "/webhook-deliveries")).map((d: any) => [d.id, d]));
    const attempts = await rest(stack, "/webhook-delivery-attempts");
    const cost = async (first: number) => {
      const { result, calls } = await counting(stack, () =>
        query(stack, `query($n: Int) { webhookDeliveryAttempts(first: $n) { nodes { id webhookDelivery { id status attemptsCount } } } }`, { n: first }),
      );
      expect(result.webhookDeliveryAttempts.nodes).toHaveLength(first);
      for (const node of result.webhookDeliveryAttempts.nodes) {
        const delivery = deliveries.get(attempts.find((a: any) => a.id === node.id).webhookDelivery.id) as any;
        expect(node.webhookDelivery).toEqual({ id: delivery.id, status: delivery.status.toUpperCase(), attemptsCount: delivery.attemptsCount });
      }
      return calls.byRoute;
    };
    const ten = await cost(10);
    expect(ten).toEqual({ "GET /service-api/webhook-delivery-attempts": 1, "GET /service-api/webhook-deliveries": 1 });
    expect(await cost(100)).toEqual(ten);
  });

  it("an attempt's delivery id alone costs no call; through a delivery's attempts, the delivery is read once", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ webhookDeliveryAttempts(first: 100) { nodes { webhookDelivery { id } } } }`));
    expect(calls.byRoute).toEqual({ "GET /service-api/webhook-delivery-attempts": 1 });
    expect(result.webhookDeliveryAttempts.nodes.every((n: any) => typeof n.webhookDelivery.id === "string")).toBe(true);
    const back = await counting(stack, () => query(stack, `{ webhookDelivery(id: "3") { id attempts { nodes { webhookDelivery { id status } } } } }`));
    expect(back.result.webhookDelivery.attempts.nodes).toHaveLength(5);
    expect(new Set(back.result.webhookDelivery.attempts.nodes.map((n: any) => n.webhookDelivery.id))).toEqual(new Set(["3"]));
    expect(back.calls.byRoute).toEqual({ "GET /service-api/webhook-deliveries/{id}": 1, "GET /service-api/webhook-delivery-attempts": 1 });
  });
});

describe("webhookDeliveryAttempt(id) and the entity", () => {
  it("the single read answers what GET /webhook-delivery-attempts/{id} answers; null when it does not exist", async () => {
    const one = (await stack.upstream.session().current.read<any>("/webhook-delivery-attempts/4"))!;
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ webhookDeliveryAttempt(id: "4") { ${FIELDS} webhookDelivery { id } } missing: webhookDeliveryAttempt(id: "999999") { id } }`),
    );
    expect(result).toEqual({ webhookDeliveryAttempt: { ...attemptAsNode(one), webhookDelivery: { id: one.webhookDelivery.id } }, missing: null });
    // two ids in one batch: the adaptive loader's first list page, then a single read for the id it lacks
    expect(calls.byRoute).toEqual({ "GET /service-api/webhook-delivery-attempts": 1, "GET /service-api/webhook-delivery-attempts/{id}": 1 });
    const alone = await counting(stack, () => query(stack, `{ webhookDeliveryAttempt(id: "4") { id } }`));
    expect(alone.result.webhookDeliveryAttempt).toEqual({ id: "4" });
    expect(alone.calls.byRoute).toEqual({ "GET /service-api/webhook-delivery-attempts/{id}": 1 });
  });

  it("_entities resolves attempts through the adaptive loader: the same calls for 10 as for 100 references", async () => {
    const attempts = await rest(stack, "/webhook-delivery-attempts");
    for (const n of [10, 100]) {
      const wanted = attempts.slice(0, n);
      const { result, calls } = await counting(stack, () =>
        query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on WebhookDeliveryAttempt { ${FIELDS} } } }`, {
          r: representations("WebhookDeliveryAttempt", [...wanted.map((a: any) => a.id), "999999"]),
        }),
      );
      expect(result._entities, `${n} references`).toEqual([...wanted.map(attemptAsNode), null]);
      // the first list page holds the known ones; the unknown id is one single read (cheaper than the remaining page)
      expect(calls.byRoute, `${n} references`).toEqual({ "GET /service-api/webhook-delivery-attempts": 1, "GET /service-api/webhook-delivery-attempts/{id}": 1 });
    }
  });

  it("an attempt read in a page is known to the request: referencing it again costs nothing", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ webhookDeliveryAttempts(first: 10) { nodes { id } } again: webhookDeliveryAttempt(id: "5") { id signature } }`),
    );
    expect(result.again.id).toBe("5");
    expect(calls.total).toBeLessThanOrEqual(2);
  });
});

describe("bad inputs", () => {
  it("are refused as BAD_USER_INPUT before any upstream call", async () => {
    const many = Array.from({ length: 101 }, (_, i) => `"${i + 1}"`).join(",");
    const cases = [
      `{ webhookDeliveryAttempt(id: "") { id } }`,
      `{ webhookDeliveryAttempt(id: "../webhook-deliveries") { id } }`,
      `{ webhookDeliveryAttempt(id: "${"9".repeat(200)}") { id } }`,
      `{ webhookDeliveryAttempts(filter: { webhookDeliveryIds: [""] }) { nodes { id } } }`,
      `{ webhookDeliveryAttempts(filter: { webhookDeliveryIds: ["1,2"] }) { nodes { id } } }`,
      `{ webhookDeliveryAttempts(filter: { webhookDeliveryIds: [${many}] }) { nodes { id } } }`,
      `{ webhookDeliveryAttempts(first: 101) { nodes { id } } }`,
      `{ webhookDeliveryAttempts(first: -1) { nodes { id } } }`,
      `{ webhookDeliveryAttempts(after: "forged.cursor") { nodes { id } } }`,
      `{ webhookDeliveryAttempts(first: 1) { nodes { webhookDelivery { attempts(first: 500) { nodes { id } } } } } }`,
    ];
    for (const source of cases) {
      const { result, calls } = await counting(stack, () => send(stack, source));
      expect(result.errors?.[0]?.extensions?.code, source).toBe("BAD_USER_INPUT");
      expect(result.data?.webhookDeliveryAttempt ?? result.data?.webhookDeliveryAttempts ?? null, source).toBeNull();
      expect(calls.total, source).toBe(0);
    }
  });

  it("a cursor of another list is refused too", async () => {
    const page = await query(stack, `{ webhookDeliveries(first: 1) { pageInfo { endCursor } } }`);
    const { result, calls } = await counting(stack, () =>
      send(stack, `query($a: String) { webhookDeliveryAttempts(after: $a) { nodes { id } } }`, { a: page.webhookDeliveries.pageInfo.endCursor }),
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(calls.total).toBe(0);
  });
});

describe("scope webhook-deliveries (forward mode)", () => {
  const CLIENTS = {
    "events-only": { secret: "s", scopes: ["events.readonly"], visibleEstablishmentIds: null },
    "deliveries-only": { secret: "s", scopes: ["webhook-deliveries.readonly"], visibleEstablishmentIds: null },
  };
  const forward = useFixture("a forward-mode stack", () =>
    startStack({ subgraphs: ["organisation"], env: { DIRECTORY_AUTH: "forward" }, directory: { clients: CLIENTS } as never }),
  );

  async function ask(clientId: string, source: string) {
    const res = await fetch(`${forward.directory.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: "s" }),
    });
    const { access_token } = (await res.json()) as { access_token: string };
    return forward.gql(forward.subgraphs.organisation!.url, source, {}, { authorization: `Bearer ${access_token}` });
  }

  const SOURCE = `{ webhookDeliveryAttempt(id: "1") { id webhookDelivery { id status } } webhookDeliveryAttempts(first: 3) { totalCount nodes { id } } }`;

  it("a caller without it gets null and FORBIDDEN for both reads", async () => {
    const response = await ask("events-only", SOURCE);
    expect(response.data).toEqual({ webhookDeliveryAttempt: null, webhookDeliveryAttempts: null });
    expect(response.errors?.map((e) => e.extensions?.code)).toEqual(["FORBIDDEN", "FORBIDDEN"]);
  });

  it("a caller with it reads them", async () => {
    const response = await ask("deliveries-only", SOURCE);
    expect(response.errors).toBeUndefined();
    expect(response.data.webhookDeliveryAttempt).toMatchObject({ id: "1", webhookDelivery: { id: "1" } });
    expect(response.data.webhookDeliveryAttempts.nodes).toHaveLength(3);
  });
});
