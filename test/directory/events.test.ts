import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { directoryToken, get } from "./current-helpers.js";
import { AUTH } from "./legacy-helpers.js";

/**
 * The directory's outbox (docs/directory.md#events-and-webhooks): an event per change, `GET /events`
 * in both formats, endpoints registered behind a challenge, signed CloudEvents deliveries retried
 * and recorded, suspension. A real receiver on loopback answers as each path says.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
}

let directory: RunningDirectory;
let receiver: Server;
let base: string;
let token: string;
const received: Received[] = [];
/** per path: how many more deliveries it refuses before accepting */
const refusals = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "";
      received.push({ path, headers: req.headers, text });
      const event = text ? JSON.parse(text) : {};
      if (event.type === "confirmation") {
        // `/mute` never answers the challenge
        if (path === "/mute") return res.writeHead(204).end();
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: event.data.data.challenge }));
      }
      if (path === "/down") return res.writeHead(503).end("down");
      const left = refusals.get(path) ?? 0;
      if (left > 0) {
        refusals.set(path, left - 1);
        return res.writeHead(500).end("not yet");
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  directory = await startDirectory({ employees: 40, today: "2026-06-15", webhooks: { retryDelaysMs: [30, 30], suspendAfter: 2 } });
  token = await directoryToken(directory.url);
});

afterAll(async () => {
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
    body: JSON.stringify({ name: `hook ${path}`, url: `${base}${path}`, topics, ...extra }),
  });
  return { status: res.status, body: (await res.json()) as any };
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
  it("filters by topic, establishment and position, and pages with the envelope's cursors", async () => {
    const updates = await get(directory.url, token, "/service-api/events?topic=employee.updated&limit=1");
    expect(updates.status).toBe(200);
    expect(updates.body.type).toBe("events");
    expect(updates.body.items).toHaveLength(1);
    expect(updates.body.items[0].topic).toBe("employee.updated");
    const next = await get(directory.url, token, updates.body.links.next.href);
    expect(next.body.items[0].topic).toBe("employee.updated");
    expect(next.body.items[0].id).not.toBe(updates.body.items[0].id);

    const after = await get(directory.url, token, "/service-api/events?after=40");
    expect(after.body.items.map((e: any) => Number(e.id)).every((id: number) => id > 40)).toBe(true);
    expect(after.body.items.map((e: any) => e.topic)).toContain("employee.updated");

    const created = await get(directory.url, token, "/service-api/events?topic=employee.created&businessEstablishment.id=1&limit=100");
    expect(created.body.items.length).toBeGreaterThan(0);
    expect(created.body.items.every((e: any) => e.businessEstablishment?.id === "1")).toBe(true);

    const bad = await get(directory.url, token, "/service-api/events?topic=employee.renamed&after=x");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["after", "topic"]);
  });

  it("answers a page as a CloudEvents batch, its links in a Link header", async () => {
    const batch = await get(directory.url, token, "/service-api/events?topic=employee.updated&limit=1", { accept: "application/cloudevents-batch+json" });
    expect(batch.status).toBe(200);
    expect(batch.headers.get("content-type")).toMatch(/^application\/cloudevents-batch\+json/);
    expect(Array.isArray(batch.body)).toBe(true);
    expect(batch.body[0]).toMatchObject({ specversion: "1.0", type: "employee.updated", source: `${directory.url}/service-api`, datacontenttype: "application/json" });
    expect(batch.body[0].data.data.type).toBe("employee");
    expect(batch.headers.get("link")).toMatch(/<[^>]+page=[^>]+>; rel="next"/);
  });
});

describe("webhook endpoints", () => {
  it("an endpoint that answers the challenge is active; one that does not stays inactive; a bad registration is a 400", async () => {
    const ok = await register("/events-ok", ["employee.updated"]);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ status: "active", topics: ["employee.updated"] });
    expect(ok.body.secret).toMatch(/^whsec_/);
    const challenge = received.find((r) => r.path === "/events-ok")!;
    expect(JSON.parse(challenge.text).type).toBe("confirmation");
    // the challenge itself is signed with the endpoint's secret
    expect(() => new Webhook(ok.body.secret).verify(challenge.text, challenge.headers as Record<string, string>)).not.toThrow();

    const mute = await register("/mute", ["employee.updated"]);
    expect(mute.body.status).toBe("inactive");

    const bad = await register("/x", ["employee.renamed"], { url: "ftp://x" });
    expect(bad.status).toBe(400);
  });

  it("delivers a change as a signed structured CloudEvent; a forged signature does not verify", async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    expect((await register("/signed", ["employee.updated"], { secret })).body.status).toBe("active");
    expect(await putUser(11, { lastName: "Quintal" })).toBe(200);
    const delivery = await until(() => received.find((r) => r.path === "/signed" && JSON.parse(r.text).type === "employee.updated"), "the delivery");
    expect(delivery.headers["content-type"]).toMatch(/^application\/cloudevents\+json/);
    const verified = new Webhook(secret).verify(delivery.text, delivery.headers as Record<string, string>) as any;
    expect(verified).toMatchObject({ specversion: "1.0", type: "employee.updated", id: lastEvent().id });
    expect(verified.data.data.familyName).toBe("Quintal");
    const forged = { ...(delivery.headers as Record<string, string>), "webhook-signature": `v1,${Buffer.alloc(32).toString("base64")}` };
    expect(() => new Webhook(secret).verify(delivery.text, forged)).toThrow();
  });

  it("retries on schedule, records each attempt and ends delivered", async () => {
    const endpoint = (await register("/flaky", ["employee.updated"])).body;
    refusals.set("/flaky", 2);
    expect(await putUser(12, { lastName: "Retried" })).toBe(200);
    const event = lastEvent();
    const delivery = await until(() => directory.company.webhookDeliveries.find((d) => d.eventId === event.id && d.webhookEndpointId === endpoint.id && d.status === "delivered"), "delivered");
    expect(delivery.attemptsCount).toBe(3);
    const attempts = await get(directory.url, token, `/service-api/webhook-delivery-attempts?webhookDelivery.id=${delivery.id}`);
    expect(attempts.body.items.map((a: any) => [a.isSuccessful, a.responseStatusCode])).toEqual([
      [false, 500],
      [false, 500],
      [true, 204],
    ]);
    expect(attempts.body.items[0].signature).toMatch(/^v1,/);
  });

  it("fails a delivery after its last attempt and suspends the endpoint after too many failed deliveries", async () => {
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
    await new Promise((r) => setTimeout(r, 100));
    expect(received.filter((r) => r.path === "/down").length).toBe(before);
  });

  it("the topics and establishments of an endpoint select what it receives", async () => {
    const other = directory.company.businessEstablishments.find((b) => b.id !== "1")!;
    const endpoint = (await register("/pings-only", ["ping"], { businessEstablishments: [{ id: other.id }] })).body;
    expect(await putUser(14, { lastName: "Unseen" })).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
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
