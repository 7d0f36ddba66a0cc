import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { Logger } from "../../platform/log.js";
import { processMetrics } from "../../platform/metrics.js";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import type { RunningSubgraph } from "../../subgraphs/shared/graphql/server.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { loadSubgraphModule } from "../helpers/stack.js";
import { freePort } from "../helpers/replicas.js";
import { AUTH } from "../directory/legacy-helpers.js";

/**
 * DIRECTORY_EVENTS=webhook against the real directory on loopback: the people subgraph registers
 * its endpoint, answers the challenge, and publishes each signed delivery once on the change feed;
 * a forged signature, a stale timestamp and a replayed message are refused.
 */

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
let directory: RunningDirectory;
let upstream: Upstream;
let people: RunningSubgraph;
let hook: string;
const heard: DirectoryChange[] = [];

beforeAll(async () => {
  directory = await startDirectory({ employees: 40, today: "2026-06-15" });
  const port = await freePort();
  hook = `http://127.0.0.1:${port}/directory-events`;
  upstream = new Upstream(
    loadUpstreamConfig({
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
      DIRECTORY_EVENTS: "webhook",
      DIRECTORY_EVENTS_PUBLIC_URL: hook,
      DIRECTORY_EVENTS_SECRET: SECRET,
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

/** a delivery as the directory sends it, signed with `secret` */
function signed(event: Record<string, unknown>, secret = SECRET, messageId = `msg_test_${Math.random()}`, at = new Date()) {
  const body = JSON.stringify({ specversion: "1.0", id: event.id, type: event.topic, source: `${directory.url}/service-api`, data: event });
  return { body, headers: { "content-type": "application/cloudevents+json", "webhook-id": messageId, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(messageId, at, body) } };
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
  it("registers its endpoint, which the directory activates once the people subgraph answers the challenge", async () => {
    // registered once the subgraph listens, in the background (a directory down at start-up is tried again)
    const endpoint = await until(() => directory.company.webhookEndpoints.find((e) => e.url === hook && e.isActive), "the registration");
    expect(endpoint).toMatchObject({ isActive: true, secret: SECRET });
    expect(endpoint!.topics).toContain("employee.updated");
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

  it("refuses a forged signature and a stale timestamp with 401, publishing nothing", async () => {
    const before = heard.length;
    const refused = await counted("refused_signature");
    expect(await deliver(signed(sampleEvent("9001"), `whsec_${Buffer.alloc(32, 9).toString("base64")}`))).toBe(401);
    expect(await deliver(signed(sampleEvent("9002"), SECRET, "msg_old", new Date(Date.now() - 10 * 60_000)))).toBe(401);
    const tampered = signed(sampleEvent("9003"));
    expect(await deliver({ ...tampered, body: tampered.body.replace('"X"', '"Y"') })).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    expect(heard.length).toBe(before);
    expect(await counted("refused_signature")).toBe(refused + 3);
  });

  it("processes a message once: its replay is not published again, nor is another message of the same event", async () => {
    const delivery = signed(sampleEvent("9100"), SECRET, "msg_replayed");
    expect(await deliver(delivery)).toBe(202);
    await until(() => heard.find((c) => c.id === "9100"), "the first delivery");
    const replays = await counted("refused_replay");
    expect(await deliver(delivery)).toBe(200);
    expect(await counted("refused_replay")).toBe(replays + 1);
    // the same event in another message (a second endpoint, a test): deduplicated by the event id
    expect(await deliver(signed(sampleEvent("9100"), SECRET, "msg_other"))).toBe(202);
    await new Promise((r) => setTimeout(r, 50));
    expect(heard.filter((c) => c.id === "9100")).toHaveLength(1);
  });

  it("takes no request without the signature headers, nor anything but a POST", async () => {
    expect((await fetch(hook, { method: "POST", body: "{}" })).status).toBe(401);
    expect((await fetch(hook)).status).toBe(405);
  });
});
