import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { Logger } from "../../platform/log.js";
import { processMetrics } from "../../platform/metrics.js";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { ingestionFor } from "../../subgraphs/shared/events/ingest.js";
import type { RunningSubgraph } from "../../subgraphs/shared/graphql/server.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { loadSubgraphModule } from "../helpers/stack.js";
import { freePort } from "../helpers/replicas.js";
import { AUTH } from "../directory/legacy-helpers.js";

/**
 * DIRECTORY_EVENTS=webhook against the real directory on loopback: the people subgraph declares
 * its endpoint, answers the activation echo, and publishes each delivery signed the production
 * service's way once on the change feed; a forged signature and a stale timestamp get 401, an
 * unreadable delivery 400, a second delivery of an event is not published again.
 */

let SECRET = "";
let directory: RunningDirectory;
let upstream: Upstream;
let people: RunningSubgraph;
let hook: string;
const heard: DirectoryChange[] = [];

beforeAll(async () => {
  directory = await startDirectory({ limits: { requests: 0 }, employees: 40, today: "2026-06-15" });
  const port = await freePort();
  hook = `http://127.0.0.1:${port}/directory-events`;
  upstream = new Upstream(
    loadUpstreamConfig({
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_REQUEST_BUDGET: "off",
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
      DIRECTORY_EVENTS: "webhook",
      DIRECTORY_EVENTS_PUBLIC_URL: hook,
      DIRECTORY_REFERENCE_FRESH_S: "600",
    }),
  );
  upstream.changes.listen((change) => heard.push(change));
  people = await startSubgraphModule(await loadSubgraphModule("people"), { upstream, port, logger: new Logger("people", "silent") });
});

afterAll(async () => {
  await people?.close();
  await upstream?.close();
  await directory?.close();
});

async function putUser(id: number, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${directory.url}/api/v3/users/${id}`, { method: "PUT", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  await res.text();
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** a delivery as the production service documents it: the event as the JSON body, signed with `secret` over `<timestamp>.<body>` */
function signed(event: Record<string, unknown> | string, secret = SECRET, at = new Date()) {
  const body = typeof event === "string" ? event : JSON.stringify(event);
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, "Z");
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("base64");
  return { body, headers: { "content-type": "application/json", "lucca-timestamp": timestamp, "lucca-signature": signature } };
}

async function deliver(delivery: ReturnType<typeof signed>): Promise<number> {
  const res = await fetch(hook, { method: "POST", headers: delivery.headers, body: delivery.body });
  await res.text();
  return res.status;
}

function sampleEvent(id: string): Record<string, unknown> {
  return { id, type: "event", topic: "employee.updated", occurredAt: new Date().toISOString(), data: { id: "3", type: "employee", url: `${directory.url}/service-api/employees/3` }, businessEstablishment: null, previousAttributes: { familyName: "X" } };
}

const counted = async (outcome: string) => (await processMetrics().registry.getSingleMetric("directory_events_total")!.get()).values.find((v) => v.labels.mode === "webhook" && v.labels.outcome === outcome)?.value ?? 0;

describe("DIRECTORY_EVENTS=webhook", () => {
  it("declares its endpoint in the production shape, which the directory activates once the people subgraph echoes its GET", async () => {
    // declared once the subgraph listens, in the background (a directory down at start-up is tried again)
    const endpoint = await until(() => directory.company.webhookEndpoints.find((e) => e.url === hook && e.isActive), "the registration");
    expect(endpoint!.topics).toEqual(expect.arrayContaining(["employee.updated", "department.updated", "occupation-category.deleted"]));
    // the secret is the one the directory answered: the facade sent none
    SECRET = endpoint!.secret!;
    expect(SECRET).not.toBe("");
    const echo = await fetch(`${hook}?echo=abc%20123`);
    expect(echo.status).toBe(200);
    expect(echo.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await echo.text()).toBe("abc 123");
  });

  it("a change at the directory reaches the change feed once, as a DirectoryChange", async () => {
    await putUser(5, { lastName: "Delivered" });
    const event = directory.company.events.at(-1)!;
    const change = await until(() => heard.find((c) => c.id === event.id), "the change");
    expect(change).toMatchObject({ topic: "employee.updated", resource: { type: "employee", id: "5" } });
    expect(change.previousAttributes).toHaveProperty("familyName");
    await until(() => directory.company.webhookDeliveries.find((d) => d.eventId === event.id && d.status === "delivered"), "delivered");
    expect(heard.filter((c) => c.id === event.id)).toHaveLength(1);
  });

  it("holds reads while the endpoint is active: an employee read again costs no request, and a change delivered is read afresh at once", async () => {
    // the endpoint read active (or a delivery taken in) vouches for the event path
    await until(() => upstream.holding || undefined, "held reads on");
    const route = "GET /service-api/employees/{id}";
    const reads = () => directory.stats.snapshot().byRoute[route] ?? 0;
    const read = async () => (await upstream.session().current.read<{ familyName: string }>("/employees/6"))!;
    const before = reads();
    await read();
    await read();
    await read();
    expect(reads() - before).toBe(1);
    await putUser(6, { lastName: "Heard-By-Webhook" });
    const event = directory.company.events.at(-1)!;
    await until(() => heard.find((c) => c.id === event.id), "the change");
    expect((await read()).familyName).toBe("Heard-By-Webhook");
    expect(reads() - before).toBe(2);
    // held again after that
    await read();
    expect(reads() - before).toBe(2);
  });

  it("refuses a forged signature, a stale timestamp, a tampered body and missing headers with 401, publishing nothing", async () => {
    const before = heard.length;
    const refused = await counted("refused_signature");
    expect(await deliver(signed(sampleEvent("9001"), "not-the-secret"))).toBe(401);
    expect(await deliver(signed(sampleEvent("9002"), SECRET, new Date(Date.now() - 10 * 60_000)))).toBe(401);
    const tampered = signed(sampleEvent("9003"));
    expect(await deliver({ ...tampered, body: tampered.body.replace('"X"', '"Y"') })).toBe(401);
    expect((await fetch(hook, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sampleEvent("9004")) })).status).toBe(401);
    expect(heard.length).toBe(before);
    expect(await counted("refused_signature")).toBe(refused + 4);
  });

  it("answers 400, never 202, to a signed delivery it cannot read, and publishes nothing", async () => {
    const before = heard.length;
    expect(await deliver(signed("{not json"))).toBe(400);
    expect(await deliver(signed({ id: "9050", topic: "no-such.topic", occurredAt: new Date().toISOString(), data: { id: "1", type: "x" } }))).toBe(400);
    expect(heard.length).toBe(before);
  });

  it("publishes an event once: a second delivery of it is acknowledged, not published again", async () => {
    expect(await deliver(signed(sampleEvent("9100")))).toBe(202);
    await until(() => heard.find((c) => c.id === "9100"), "the first delivery");
    expect(await deliver(signed(sampleEvent("9100")))).toBe(202);
    expect(heard.filter((c) => c.id === "9100")).toHaveLength(1);
  });

  it("a change to the reference data at the directory drops the reference data the facade holds", async () => {
    const session = upstream.session();
    const read = () => session.current.all<{ id: string; name: string }>("/departments");
    await read();
    const before = directory.stats.snapshot().byRoute["GET /service-api/departments"] ?? 0;
    await read();
    // held: no request
    expect(directory.stats.snapshot().byRoute["GET /service-api/departments"] ?? 0).toBe(before);
    const res = await fetch(`${directory.url}/_admin/reference/departments/2`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Renamed by HR" }) });
    expect(res.status).toBe(200);
    const event = (await res.json()) as { id: string; topic: string };
    expect(event.topic).toBe("department.updated");
    await until(() => heard.find((c) => c.id === event.id), "the department change");
    const after = await read();
    expect(directory.stats.snapshot().byRoute["GET /service-api/departments"] ?? 0).toBe(before + 1);
    expect(after.find((d) => d.id === "2")?.name).toBe("Renamed by HR");
  });
});

describe("a suspended endpoint", () => {
  it("is declared again when the facade finds it suspended; deliveries go on, verified with the new secret", async () => {
    const server = createServer((req, res) => void ingestion.receive(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/directory-events`;
    const own = new Upstream(
      loadUpstreamConfig({ DIRECTORY_BASE_URL: directory.url, DIRECTORY_CLIENT_ID: "demo-client", DIRECTORY_CLIENT_SECRET: "demo-secret", DIRECTORY_API_KEY: "demo-api-key", DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: url }),
    );
    const ownHeard: DirectoryChange[] = [];
    own.changes.listen((change) => ownHeard.push(change));
    const ingestion = ingestionFor(own, new Logger("people", "silent"))!;
    try {
      expect(await ingestion.ensureEndpoint()).toBe("active");
      const first = directory.company.webhookEndpoints.find((e) => e.url === url)!;
      // the directory suspends it (a 404 it met, too many failures)
      first.suspended = true;
      expect(await ingestion.ensureEndpoint()).toBe("active");
      const active = directory.company.webhookEndpoints.filter((e) => e.url === url && e.isActive && !e.suspended);
      expect(active).toHaveLength(1);
      expect(active[0]!.id).not.toBe(first.id);
      await putUser(6, { lastName: "Resumed" });
      const event = directory.company.events.at(-1)!;
      await until(() => ownHeard.find((c) => c.id === event.id), "the delivery to the new endpoint");
    } finally {
      await own.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
