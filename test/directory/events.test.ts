import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { directoryToken, get } from "./current-helpers.js";
import { AUTH } from "./legacy-helpers.js";

/**
 * The directory's outbox (docs/directory.md#events-and-webhooks): an event per change, `GET /events`
 * in both formats, endpoints declared and activated by the echo GET, deliveries signed the
 * production service's way, retried by status and recorded, suspension and activation again. The
 * receiver is written from the service's published algorithm alone (node:http and node:crypto): it
 * echoes `?echo=`, and checks `Lucca-Signature` (base64 HMAC-SHA256 of `<Lucca-Timestamp>.<raw
 * body>`, keyed with the secret the registration answered) and the timestamp within 5 minutes.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** whether the signature and timestamp passed the published check */
  verified: boolean;
}

let directory: RunningDirectory;
let receiver: Server;
let base: string;
let token: string;
const received: Received[] = [];
/** the secret of the endpoint declared for each path, from its registration answer */
const secrets = new Map<string, string>();
/** per path: how many more deliveries it refuses (with the status given) before accepting */
const refusals = new Map<string, { left: number; status: number }>();
/** `/slow` holds its answers until the test lets them go */
const held: Array<() => void> = [];
let inFlight = 0;
let mostInFlight = 0;

/** The published check, and nothing else of ours. */
function verify(secret: string | undefined, headers: IncomingHttpHeaders, raw: string): boolean {
  const timestamp = headers["lucca-timestamp"];
  const signature = headers["lucca-signature"];
  if (secret === undefined || typeof timestamp !== "string" || typeof signature !== "string") return false;
  if (Math.abs(Date.now() - Date.parse(timestamp)) > 5 * 60_000 || Number.isNaN(Date.parse(timestamp))) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const path = url.pathname;
    if (req.method === "GET") {
      // the activation: the echo value back as text/plain; `/mute` answers something else
      const echo = url.searchParams.get("echo") ?? "";
      res.writeHead(200, { "content-type": "text/plain" });
      return res.end(path === "/mute" ? "hello" : echo);
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const verified = verify(secrets.get(path), req.headers, text);
      received.push({ path, headers: req.headers, text, verified });
      if (path === "/down") return res.writeHead(503).end("down");
      if (path === "/gone") return res.writeHead(410).end();
      const refusal = refusals.get(path);
      if (refusal && refusal.left > 0) {
        refusal.left--;
        return res.writeHead(refusal.status).end("not yet");
      }
      if (path === "/slow") {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        return held.push(() => (inFlight--, res.writeHead(202).end()));
      }
      res.writeHead(verified ? 202 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  directory = await startDirectory({ limits: { requests: 0 }, employees: 40, today: "2026-06-15", webhooks: { retryDelaysMs: [30, 30], suspendAfter: 2 } });
  token = await directoryToken(directory.url);
});

afterAll(async () => {
  for (const release of held.splice(0)) release();
  await directory?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function putUser(id: number, body: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${directory.url}/api/v3/users/${id}`, { method: "PUT", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify(body) });
  await res.text();
  return res.status;
}

async function register(path: string, topics: string[], extra: Record<string, unknown> = {}) {
  const res = await fetch(`${directory.url}/service-api/webhook-endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01", "content-type": "application/json" },
    body: JSON.stringify({ name: `hook ${path}`, webhookUrl: `${base}${path}`, apiVersion: "2024-11-01", topics, businessEstablishments: null, status: "active", ...extra }),
  });
  const body = (await res.json()) as any;
  if (typeof body.secret === "string") secrets.set(path, body.secret);
  return { status: res.status, body };
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const lastEvent = () => directory.company.events.at(-1)!;

describe("an event per change", () => {
  it("a legacy user update is an employee.updated with the employee after the change and its previous attributes", async () => {
    const before = directory.company.events.length;
    const employee = directory.company.employees.find((e) => e.id === "7")!;
    const oldName = employee.givenName;
    expect(await putUser(7, { firstName: "Zoé" })).toBe(200);
    expect(directory.company.events.length).toBe(before + 1);
    const { body } = await get(directory.url, token, `/service-api/events/${lastEvent().id}`);
    expect(body.topic).toBe("employee.updated");
    expect(body.data).toMatchObject({ id: "7", type: "employee", givenName: "Zoé" });
    expect(body.previousAttributes).toEqual({ givenName: oldName });
    const employeeRead = await get(directory.url, token, "/service-api/job-positions?employment.employee.id=7&status=active");
    const establishment = employeeRead.body.items?.[0]?.businessEstablishment?.id;
    if (establishment) expect(body.businessEstablishment.id).toBe(establishment);
  });

  it("a legacy-only change is an employee.updated with no previous attribute of the employee; a PUT that changes nothing records none", async () => {
    const before = directory.company.events.length;
    expect(await putUser(8, { jobTitle: "Chief Cartographer" })).toBe(200);
    expect(directory.company.events.length).toBe(before + 1);
    expect(lastEvent()).toMatchObject({ topic: "employee.updated", employeeId: "8", previousAttributes: {} });
    expect(await putUser(8, { jobTitle: "Chief Cartographer" })).toBe(200);
    expect(await putUser(7, { firstName: "Zoé" })).toBe(200);
    expect(directory.company.events.length).toBe(before + 1);
  });

  it("a refused legacy update records nothing", async () => {
    const before = directory.company.events.length;
    expect(await putUser(8, { firstName: "" })).toBe(400);
    expect(directory.company.events.length).toBe(before);
  });
});

describe("GET /events", () => {
  it("filters by delivery status only: what production does not list is refused, naming the parameter", async () => {
    for (const [param, value] of [["after", "40"], ["topic", "employee.updated"], ["businessEstablishment.id", "1"], ["sort", "-id"]] as const) {
      const res = await get(directory.url, token, `/service-api/events?${param}=${encodeURIComponent(value)}`);
      expect(res.status, param).toBe(400);
      expect(Object.keys(res.body.errors), param).toEqual([param]);
    }
    const both = await get(directory.url, token, "/service-api/events?topic=employee.renamed&after=x");
    expect(Object.keys(both.body.errors).sort()).toEqual(["after", "topic"]);
    expect((await get(directory.url, token, "/service-api/events?status=delivered&limit=1&include=links,totalCount")).status).toBe(200);
  });

  it("pages by id with the cursor of links.next, or a page index from 1", async () => {
    for (let i = 0; i < 3; i++) expect(await putUser(20 + i, { lastName: `Paged${i}` })).toBe(200);
    const first = await get(directory.url, token, "/service-api/events?limit=2&include=links,totalCount");
    expect(first.status).toBe(200);
    expect(first.body.type).toBe("events");
    const total = first.body.totalCount as number;
    expect(total).toBeGreaterThanOrEqual(3);
    const ids: string[] = [];
    for (let page: any = first.body; ; ) {
      ids.push(...page.items.map((e: any) => e.id));
      if (!page.links.next) break;
      page = (await get(directory.url, token, page.links.next.href)).body;
    }
    expect(ids).toHaveLength(total);
    expect([...ids].sort((a, b) => Number(a) - Number(b))).toEqual(ids);
    // the index of the last page answers its events, and the cursor after it is where a reader resumes
    const lastIndex = Math.ceil(total / 2);
    const last = await get(directory.url, token, `/service-api/events?limit=2&page=${lastIndex}&include=links`);
    expect(last.body.items.map((e: any) => e.id)).toEqual(ids.slice((lastIndex - 1) * 2));
    expect(last.body.links.next).toBeNull();
    expect((await get(directory.url, token, `/service-api/events?limit=2&page=${lastIndex + 1}`)).body.items).toEqual([]);
  });

  it("keeps events 2 months: older ones are gone from the list and the single read", async () => {
    // the demo company's events are its employees' creations, most of them long before today (2026-06-15)
    const old = directory.company.events.find((e) => e.occurredAt < "2026-04-15" && !directory.company.webhookDeliveries.some((d) => d.eventId === e.id))!;
    const kept = directory.company.events.filter((e) => e.occurredAt >= "2026-04-15T23:59:59.999Z" || directory.company.webhookDeliveries.some((d) => d.eventId === e.id)).map((e) => e.id);
    expect(old).toBeDefined();
    expect((await get(directory.url, token, `/service-api/events/${old.id}`)).status).toBe(404);
    const listed: string[] = [];
    for (let page: any = (await get(directory.url, token, "/service-api/events?limit=100&include=links")).body; ; ) {
      listed.push(...page.items.map((e: any) => e.id));
      if (!page.links.next) break;
      page = (await get(directory.url, token, page.links.next.href)).body;
    }
    expect(listed).toEqual(kept);
    expect(listed).not.toContain(old.id);
  });

  it("answers a page as a CloudEvents batch, the production document's members only, its links in a Link header", async () => {
    await putUser(24, { lastName: "Batch" });
    const batch = await get(directory.url, token, "/service-api/events?limit=1&include=links", { accept: "application/cloudevents-batch+json" });
    expect(batch.status).toBe(200);
    expect(batch.headers.get("content-type")).toMatch(/^application\/cloudevents-batch\+json/);
    expect(Array.isArray(batch.body)).toBe(true);
    const json = (await get(directory.url, token, "/service-api/events?limit=1")).body.items[0];
    expect(batch.body[0]).toMatchObject({ specversion: "1.0.3", id: json.id, type: `com.luccasoftware.${json.topic}`, source: `${directory.url}/service-api/employees`, time: json.occurredAt });
    const members = ["specversion", "id", "type", "source", "time", "comluccasoftwarefirstdeliverytime", "comluccasoftwarelatestdeliverytime", "comluccasoftwaredeliveriescount", "comluccasoftwarewebhookendpointwebhookendpointid", "comluccasoftwarewebhookendpointurl"];
    expect(Object.keys(batch.body[0]).filter((k) => !members.includes(k))).toEqual([]);
    expect(batch.headers.get("link")).toMatch(/<[^>]+page=[^>]+>; rel="next"/);
  });
});

describe("webhook endpoints", () => {
  it("an endpoint that echoes the activation GET is active; one that does not stays inactive; the secret is answered once", async () => {
    const ok = await register("/events-ok", ["employee.updated"]);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ status: "active", topics: ["employee.updated"], webhookUrl: `${base}/events-ok` });
    expect(typeof ok.body.secret).toBe("string");
    const read = await get(directory.url, token, `/service-api/webhook-endpoints/${ok.body.id}`);
    expect(read.body.status).toBe("active");
    expect(read.body).not.toHaveProperty("secret");

    const mute = await register("/mute", ["employee.updated"]);
    expect(mute.body.status).toBe("inactive");
  });

  it("refuses what production refuses: another property, an unknown topic, plain http to a host that is not loopback", async () => {
    const refused = async (extra: Record<string, unknown>) => (await register("/x", ["employee.updated"], extra)).status;
    expect(await refused({ url: `${base}/x` })).toBe(400);
    expect(await refused({ secret: "mine" })).toBe(400);
    expect(await refused({ topics: ["employee.renamed"] })).toBe(400);
    expect(await refused({ webhookUrl: "http://receiver.example.com/x" })).toBe(400);
    expect(await refused({ webhookUrl: "ftp://127.0.0.1/x" })).toBe(400);
  });

  it("delivers a change as the event object in JSON, which the published check verifies; a forged signature does not", async () => {
    expect((await register("/signed", ["employee.updated"])).body.status).toBe("active");
    expect(await putUser(11, { lastName: "Quintal" })).toBe(200);
    const delivery = await until(() => received.find((r) => r.path === "/signed"), "the delivery");
    expect(delivery.headers["content-type"]).toMatch(/^application\/json/);
    expect(delivery.headers["lucca-timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(delivery.verified).toBe(true);
    const event = JSON.parse(delivery.text);
    expect(event).toMatchObject({ id: lastEvent().id, type: "event", topic: "employee.updated", data: { type: "employee", familyName: "Quintal" } });
    expect(verify(secrets.get("/signed"), { ...delivery.headers, "lucca-signature": Buffer.alloc(32).toString("base64") }, delivery.text)).toBe(false);
    expect(verify("another secret", delivery.headers, delivery.text)).toBe(false);
  });

  it("a change to the reference data is an event delivered to the endpoints of its topic", async () => {
    await register("/reference", ["department.updated", "legal-entity.updated"]);
    const res = await fetch(`${directory.url}/_admin/reference/departments/3`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Cartography" }) });
    expect(res.status).toBe(200);
    const delivery = await until(() => received.find((r) => r.path === "/reference"), "the delivery");
    expect(delivery.verified).toBe(true);
    const event = JSON.parse(delivery.text);
    expect(event).toMatchObject({ topic: "department.updated", data: { id: "3", type: "department", name: "Cartography" } });
    expect(event.previousAttributes).toHaveProperty("name");
    expect((await fetch(`${directory.url}/_admin/reference/departments/3`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ level: 9 }) })).status).toBe(400);
  });

  it("retries a 500 and a 400 on schedule, records each attempt and ends delivered", async () => {
    const endpoint = (await register("/flaky", ["employee.updated"])).body;
    refusals.set("/flaky", { left: 2, status: 500 });
    expect(await putUser(12, { lastName: "Retried" })).toBe(200);
    const event = lastEvent();
    const delivery = await until(() => directory.company.webhookDeliveries.find((d) => d.eventId === event.id && d.webhookEndpointId === endpoint.id && d.status === "delivered"), "delivered");
    expect(delivery.attemptsCount).toBe(3);
    const attempts = await get(directory.url, token, `/service-api/webhook-delivery-attempts?webhookDelivery.id=${delivery.id}`);
    expect(attempts.body.items.map((a: any) => [a.isSuccessful, a.responseStatusCode])).toEqual([
      [false, 500],
      [false, 500],
      [true, 202],
    ]);
    expect(typeof attempts.body.items[0].signature).toBe("string");

    const picky = (await register("/picky", ["employee.updated"])).body;
    refusals.set("/picky", { left: 1, status: 400 });
    expect(await putUser(12, { lastName: "Again" })).toBe(200);
    const again = lastEvent();
    const second = await until(() => directory.company.webhookDeliveries.find((d) => d.eventId === again.id && d.webhookEndpointId === picky.id && d.status === "delivered"), "delivered after a 400");
    expect(second.attemptsCount).toBe(2);
  });

  it("suspends an endpoint that answers 410 at once", async () => {
    const endpoint = (await register("/gone", ["employee.updated"])).body;
    expect(await putUser(15, { lastName: "Gone" })).toBe(200);
    const event = lastEvent();
    const delivery = await until(() => directory.company.webhookDeliveries.find((d) => d.eventId === event.id && d.webhookEndpointId === endpoint.id && d.status === "failed"), "failed");
    expect(delivery.attemptsCount).toBe(1);
    expect((await get(directory.url, token, `/service-api/webhook-endpoints/${endpoint.id}`)).body.status).toBe("suspended");
  });

  it("fails a delivery after its last attempt, suspends after too many failed deliveries, and resumes once the echo passes again", async () => {
    const endpoint = (await register("/down", ["employee.updated"])).body;
    expect(endpoint.status).toBe("active");
    for (const name of ["One", "Two"]) {
      expect(await putUser(13, { lastName: name })).toBe(200);
      const event = lastEvent();
      const delivery = await until(() => directory.company.webhookDeliveries.find((d) => d.eventId === event.id && d.webhookEndpointId === endpoint.id && d.status === "failed"), "failed");
      expect(delivery.attemptsCount).toBe(3);
    }
    const read = await get(directory.url, token, `/service-api/webhook-endpoints/${endpoint.id}`);
    expect(read.body.status).toBe("suspended");
    const before = received.filter((r) => r.path === "/down").length;
    expect(await putUser(13, { lastName: "Three" })).toBe(200);
    const event = lastEvent();
    expect(directory.company.webhookDeliveries.some((d) => d.eventId === event.id && d.webhookEndpointId === endpoint.id)).toBe(false);
    expect(received.filter((r) => r.path === "/down").length).toBe(before);

    const activated = await fetch(`${directory.url}/_admin/webhook-endpoints/${endpoint.id}/activate`, { method: "POST" });
    expect(await activated.json()).toEqual({ passed: true });
    expect((await get(directory.url, token, `/service-api/webhook-endpoints/${endpoint.id}`)).body.status).toBe("active");
  });

  it("makes at most 3 attempts at once to one endpoint", async () => {
    const endpoint = (await register("/slow", ["employee.updated"])).body;
    for (let i = 0; i < 5; i++) expect(await putUser(16 + i, { lastName: `Slow${i}` })).toBe(200);
    await until(() => (held.length === 3 ? true : undefined), "three attempts in flight");
    // the two others wait for a place: none is sent while three are unanswered
    await new Promise((r) => setTimeout(r, 100));
    expect(held.length).toBe(3);
    while (directory.company.webhookDeliveries.some((d) => d.webhookEndpointId === endpoint.id && d.status === "undelivered")) {
      for (const release of held.splice(0)) release();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(mostInFlight).toBe(3);
    expect(directory.company.webhookDeliveries.filter((d) => d.webhookEndpointId === endpoint.id && d.status === "delivered")).toHaveLength(5);
  });

  it("deletes an endpoint: it receives nothing more", async () => {
    const endpoint = (await register("/deleted", ["employee.updated"])).body;
    const res = await fetch(`${directory.url}/service-api/webhook-endpoints/${endpoint.id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01" } });
    expect(res.status).toBe(204);
    expect((await get(directory.url, token, `/service-api/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect(await putUser(22, { lastName: "Unheard" })).toBe(200);
    expect(directory.company.webhookDeliveries.some((d) => d.webhookEndpointId === endpoint.id)).toBe(false);
  });

  it("the topics and establishments of an endpoint select what it receives", async () => {
    const other = directory.company.businessEstablishments.find((b) => b.id !== "1")!;
    const endpoint = (await register("/pings-only", ["ping"], { businessEstablishments: [{ id: other.id }] })).body;
    expect(await putUser(14, { lastName: "Unseen" })).toBe(200);
    expect(directory.company.webhookDeliveries.some((d) => d.webhookEndpointId === endpoint.id)).toBe(false);
  });

  it("the test delivery still works and is signed", async () => {
    const res = await fetch(`${directory.url}/service-api/webhook-deliveries`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01", "content-type": "application/json" },
      body: JSON.stringify({ webhookEndpoint: { id: "1" } }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as any).event.type).toBe("employee.created");
  });
});
