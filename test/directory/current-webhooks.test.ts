import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { API_VERSION, directoryToken, get, type Answer } from "./current-helpers.js";

/**
 * `POST /service-api/webhook-deliveries` against a real receiver on loopback: `/ok` answers 204,
 * `/fail` 500, `/moved` a redirect. Endpoints:
 * 1 ok · 2 fail (the generated company already holds an undelivered delivery with 2 attempts for
 * it) · 3 inactive · 4 fail · 5 fail · 6 nothing listening · 7 redirect.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

let directory: RunningDirectory;
let receiver: Server;
let token: string;
let url: string;
const received: Received[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({ path: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : undefined });
      if (req.url === "/ok") res.writeHead(204).end();
      else if (req.url === "/moved") res.writeHead(302, { location: "/ok" }).end();
      else res.writeHead(500).end("boom");
    });
  });
  const base = await listen(receiver);
  // a port that was just free: nothing answers there
  const closed = createServer();
  const unreachable = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));

  directory = await startDirectory({
    limits: { requests: 0 },
    employees: 300,
    today: "2026-06-15",
    webhookEndpoints: [
      { id: "1", url: `${base}/ok`, isActive: true },
      { id: "2", url: `${base}/fail`, isActive: true },
      { id: "3", url: `${base}/ok`, isActive: false },
      { id: "4", url: `${base}/fail`, isActive: true },
      { id: "5", url: `${base}/fail`, isActive: true },
      { id: "6", url: `${unreachable}/hook`, isActive: true },
      { id: "7", url: `${base}/moved`, isActive: true },
    ],
  });
  url = directory.url;
  token = await directoryToken(url);
});

afterAll(async () => {
  await directory?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function trigger(body: unknown, options: { token?: string | null; query?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { "api-version": API_VERSION, "content-type": "application/json", ...options.headers };
  const bearer = options.token === undefined ? token : options.token;
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${url}/service-api/webhook-deliveries${options.query ?? ""}`, {
    method: "POST",
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const endpoint = (id: string) => ({ webhookEndpoint: { id } });

describe("test deliveries", () => {
  it("posts a sample employee.created event as JSON to the endpoint", async () => {
    const before = received.length;
    const res = await trigger(endpoint("1"));
    const hits = received.slice(before);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.path).toBe("/ok");
    expect(hits[0]!.headers["content-type"]).toBe("application/json");
    // signed like every delivery, the production service's way (docs/decisions.md#webhook-deliveries)
    expect(hits[0]!.headers["lucca-timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(hits[0]!.headers["lucca-signature"]).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(res.body.id).toBeDefined();
    expect(hits[0]!.body).toMatchObject({ id: res.body.event.id, type: "employee.created", url: res.body.event.url });
    expect(hits[0]!.body.resource).toEqual({ id: "1", type: "employee", url: `${url}/service-api/employees/1` });
  });

  it("answers 202 with a delivered delivery when the endpoint answers 2xx", async () => {
    const res = await trigger(endpoint("1"));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: res.body.id,
      type: "webhook-delivery",
      url: `${url}/service-api/webhook-deliveries/${res.body.id}`,
      nextAttemptAt: null,
      attemptsCount: 1,
      status: "delivered",
      event: { id: res.body.event.id, type: "employee.created", url: `${url}/service-api/events/${res.body.event.id}` },
      webhookEndpoint: { id: "1", type: "webhook-endpoint", url: `${url}/service-api/webhook-endpoints/1` },
    });
  });

  it("stores the delivery with the company", async () => {
    const res = await trigger(endpoint("1"));
    const stored = directory.company.webhookDeliveries.find((d) => d.id === res.body.id);
    expect(stored).toMatchObject({ webhookEndpointId: "1", eventId: res.body.event.id, eventType: "employee.created", status: "delivered", attemptsCount: 1 });
  });

  it("gives every delivery and event a new id", async () => {
    const a = await trigger(endpoint("1"));
    const b = await trigger(endpoint("1"));
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body.event.id).not.toBe(b.body.event.id);
    const generated = new Set(directory.company.webhookDeliveries.slice(0, 3).map((d) => d.id));
    expect(generated.has(a.body.id)).toBe(false);
  });

  it("leaves a delivery undelivered with a next attempt when the endpoint answers non-2xx", async () => {
    const before = Date.now();
    const res = await trigger(endpoint("4"));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "undelivered", attemptsCount: 1 });
    expect(Date.parse(res.body.nextAttemptAt)).toBeGreaterThan(before);
    expect(received.at(-1)!.path).toBe("/fail");
  });

  it("counts a delivery after an undelivered one as the next attempt", async () => {
    const pending = directory.company.webhookDeliveries.find((d) => d.webhookEndpointId === "2")!;
    expect(pending).toMatchObject({ status: "undelivered", attemptsCount: 2 });
    const res = await trigger(endpoint("2"));
    expect(res.body).toMatchObject({ status: "undelivered", attemptsCount: 3 });
  });

  it("fails the delivery at the fifth unsuccessful attempt in a row, then starts over", async () => {
    const outcomes: Array<[string, number, string | null]> = [];
    for (let i = 0; i < 6; i++) {
      const res = await trigger(endpoint("5"));
      outcomes.push([res.body.status, res.body.attemptsCount, res.body.nextAttemptAt === null ? null : "set"]);
    }
    expect(outcomes).toEqual([
      ["undelivered", 1, "set"],
      ["undelivered", 2, "set"],
      ["undelivered", 3, "set"],
      ["undelivered", 4, "set"],
      ["failed", 5, null],
      ["undelivered", 1, "set"],
    ]);
  });

  it("plans later attempts further apart", async () => {
    const first = await trigger(endpoint("4"));
    const second = await trigger(endpoint("4"));
    const gap = (r: Answer) => Date.parse(r.body.nextAttemptAt) - Date.now();
    expect(second.body.attemptsCount).toBe(first.body.attemptsCount + 1);
    expect(gap(second)).toBeGreaterThan(gap(first));
  });

  it("leaves a delivery undelivered when nothing listens at the endpoint", async () => {
    const res = await trigger(endpoint("6"));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "undelivered", attemptsCount: 1 });
  });

  it("does not follow a redirect: it is not a delivery", async () => {
    const before = received.length;
    const res = await trigger(endpoint("7"));
    expect(res.body.status).toBe("undelivered");
    expect(received.slice(before).map((r) => r.path)).toEqual(["/moved"]);
  });

  it("links a delivery to its attempts with include=links", async () => {
    const res = await trigger(endpoint("1"), { query: "?include=links" });
    expect(res.body.links).toEqual({
      attempts: { href: `${url}/service-api/webhook-delivery-attempts?webhookDelivery.id=${res.body.id}` },
    });
  });

  it("leaves links out without include=links", async () => {
    const res = await trigger(endpoint("1"));
    expect(res.body).not.toHaveProperty("links");
  });
});

describe("test delivery errors", () => {
  it("answers 404 for an unknown webhook endpoint", async () => {
    const res = await trigger(endpoint("404"));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.detail).toContain("404");
  });

  it("answers 400 for an inactive endpoint, without calling it", async () => {
    const before = received.length;
    const res = await trigger(endpoint("3"));
    expect(res.status).toBe(400);
    expect(res.body.errors["webhookEndpoint.id"][0]).toContain("inactive");
    expect(received.length).toBe(before);
  });

  it("answers 400 without a body", async () => {
    const res = await trigger(undefined);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(["webhookEndpoint.id"]);
  });

  it("answers 400 when the endpoint id is missing", async () => {
    const res = await trigger({ webhookEndpoint: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(["webhookEndpoint.id"]);
  });

  it("answers 400 when the endpoint id is not a string", async () => {
    const res = await trigger({ webhookEndpoint: { id: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(["webhookEndpoint.id"]);
  });

  it("answers 400 when the endpoint id is empty", async () => {
    const res = await trigger(endpoint(""));
    expect(res.status).toBe(400);
    expect(res.body.errors["webhookEndpoint.id"][0]).toContain("empty");
  });

  it("answers 400 when the body is not a JSON object", async () => {
    const res = await trigger([endpoint("1")]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("body");
  });

  it("answers 400 when the body is not JSON", async () => {
    const res = await trigger("{webhookEndpoint");
    expect(res.status).toBe(400);
  });

  it("answers 400 for an unknown include value", async () => {
    const res = await trigger(endpoint("1"), { query: "?include=everything" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("include");
  });

  it("answers 403 without the webhook-deliveries.readwrite scope", async () => {
    const narrow = await directoryToken(url, "demo-client", "employees.readwrite");
    const res = await trigger(endpoint("1"), { token: narrow });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain("webhook-deliveries.readwrite");
  });

  it("answers 403 to the limited demo client", async () => {
    const limited = await directoryToken(url, "demo-limited");
    expect((await trigger(endpoint("1"), { token: limited })).status).toBe(403);
  });

  it("answers 401 without a token", async () => {
    expect((await trigger(endpoint("1"), { token: null })).status).toBe(401);
  });

  it("answers 400 without the Api-Version header", async () => {
    const res = await trigger(endpoint("1"), { headers: { "api-version": "" } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(["Api-Version"]);
  });
});

describe("the query form of a test delivery", () => {
  it("takes the endpoint from ?webhookEndpoint.id= with no body", async () => {
    const before = received.length;
    const res = await trigger(undefined, { query: "?webhookEndpoint.id=1" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "delivered", webhookEndpoint: { id: "1" } });
    expect(received.slice(before).map((r) => r.path)).toEqual(["/ok"]);
  });

  it("accepts the query and the body together when they agree", async () => {
    expect((await trigger(endpoint("1"), { query: "?webhookEndpoint.id=1" })).status).toBe(202);
  });

  it.each([
    ["the query and the body disagree", endpoint("1"), "?webhookEndpoint.id=2", "webhookEndpoint.id"],
    ["the query id is empty", undefined, "?webhookEndpoint.id=", "webhookEndpoint.id"],
    ["the query id is repeated", undefined, "?webhookEndpoint.id=1&webhookEndpoint.id=1", "webhookEndpoint.id"],
    ["a parameter is unknown", undefined, "?webhookEndpoint.id=1&endpoint=1", "endpoint"],
  ])("answers 400 when %s, and delivers nothing", async (_why, body, query, param) => {
    const before = received.length;
    const deliveries = directory.company.webhookDeliveries.length;
    const res = await trigger(body, { query });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty([param]);
    expect(received.length).toBe(before);
    expect(directory.company.webhookDeliveries.length).toBe(deliveries);
  });

  it("answers 404 for an unknown endpoint in the query", async () => {
    expect((await trigger(undefined, { query: "?webhookEndpoint.id=99" })).status).toBe(404);
  });
});

describe("reading deliveries, their attempts, events and endpoints", () => {
  it("records each test delivery's event and attempt, readable at the addresses it gives", async () => {
    const failed = await trigger(endpoint("4"), { query: "?include=links" });
    expect(failed.body.status).toBe("undelivered");
    const delivery = await get(url, token, `/service-api/webhook-deliveries/${failed.body.id}`);
    expect(delivery.status).toBe(200);
    expect(delivery.body).toEqual({ ...failed.body, links: undefined });

    const attempts = await get(url, token, failed.body.links.attempts.href);
    expect(attempts.body.items).toEqual([
      expect.objectContaining({
        type: "webhook-delivery-attempt",
        webhookDelivery: { id: failed.body.id, type: "webhook-delivery", url: failed.body.url },
        isSuccessful: false,
        responseStatusCode: 500,
        errorResponseBody: "boom",
      }),
    ]);
    // the Lucca-Signature the attempt sent (docs/decisions.md#webhook-deliveries)
    expect(attempts.body.items[0].signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);

    const event = await get(url, token, failed.body.event.url);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ id: failed.body.event.id, type: "event", topic: "employee.created", data: { id: "1", type: "employee" } });
  });

  it("has an employee.created event per employee of the demo company, listed while it is kept (2 months)", async () => {
    const res = await get(url, token, "/service-api/events?limit=0&include=totalCount");
    const kept = directory.company.events.filter((e) => e.occurredAt >= "2026-04-15T23:59:59.999Z" || directory.company.webhookDeliveries.some((d) => d.eventId === e.id));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(directory.company.events.length);
    expect(res.body.totalCount).toBe(kept.length);
    const employees = directory.company.employees;
    expect(directory.company.events.slice(0, employees.length).map((e) => [e.id, e.topic, e.occurredAt])).toEqual(
      employees.map((e) => [e.id, "employee.created", e.createdAt]),
    );
  });

  it("lists the deliveries of one endpoint", async () => {
    const res = await get(url, token, "/service-api/webhook-deliveries?webhookEndpoint.id=2&limit=100");
    const expected = directory.company.webhookDeliveries.filter((d) => d.webhookEndpointId === "2").map((d) => d.id);
    expect(res.body.items.map((d: { id: string }) => d.id)).toEqual(expected);
  });

  it("serves the configured endpoints with their address and status", async () => {
    const res = await get(url, token, "/service-api/webhook-endpoints/3");
    expect(res.body).toMatchObject({ id: "3", type: "webhook-endpoint", webhookUrl: expect.stringMatching(/\/ok$/), status: "inactive", apiVersion: API_VERSION });
  });

  it.each([
    ["/service-api/webhook-endpoints", "webhook-endpoints"],
    ["/service-api/events", "events"],
    ["/service-api/webhook-deliveries", "webhook-deliveries"],
    ["/service-api/webhook-delivery-attempts", "webhook-deliveries"],
  ])("guards %s with the %s scope", async (path, scope) => {
    const own = await directoryToken(url, "demo-client", `${scope}.readonly`);
    expect((await get(url, own, path)).status).toBe(200);
    const other = await directoryToken(url, "demo-client", "employees.readonly");
    const refused = await get(url, other, path);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain(`${scope}.readonly`);
  });

  it("does not let a read-only deliveries token trigger a delivery", async () => {
    const readonly = await directoryToken(url, "demo-client", "webhook-deliveries.readonly");
    expect((await trigger(endpoint("1"), { token: readonly })).status).toBe(403);
  });
});

describe("filters and parameters of the production service's webhook reads", () => {
  it("filters endpoints by status and by application", async () => {
    const active = await get(url, token, "/service-api/webhook-endpoints?status=active&limit=100");
    expect(active.body.items.map((e: { id: string }) => e.id)).toEqual(["1", "2", "4", "5", "6", "7"]);
    const inactive = await get(url, token, "/service-api/webhook-endpoints?status=inactive,suspended");
    expect(inactive.body.items.map((e: { id: string }) => e.id)).toEqual(["3"]);
    expect((await get(url, token, "/service-api/webhook-endpoints?status=paused")).status).toBe(400);
    expect((await get(url, token, "/service-api/webhook-endpoints?application.id=1")).body.items).toEqual([]);
  });

  it("filters events by the status of their deliveries", async () => {
    const ok = await trigger(endpoint("1"));
    const ko = await trigger(endpoint("5"));
    const ids = async (status: string) =>
      (await get(url, token, `/service-api/events?status=${status}&limit=100`)).body.items.map((e: { id: string }) => e.id);
    expect(await ids("delivered")).toContain(ok.body.event.id);
    expect(await ids("delivered")).not.toContain(ko.body.event.id);
    expect(await ids("scheduled")).toContain(ko.body.event.id);
    // an event nothing delivered has no delivery status
    const never = directory.company.events.find((e) => !directory.company.webhookDeliveries.some((d) => d.eventId === e.id))!;
    for (const status of ["delivered", "scheduled", "failed"]) expect(await ids(status)).not.toContain(never.id);
    expect((await get(url, token, "/service-api/events?status=lost")).status).toBe(400);
  });

  it("takes event.topic=ping on a test delivery and refuses any other topic", async () => {
    expect((await trigger(undefined, { query: "?webhookEndpoint.id=1&event.topic=ping" })).status).toBe(202);
    const res = await trigger(undefined, { query: "?webhookEndpoint.id=1&event.topic=leave.created" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(["event.topic"]);
  });
});
