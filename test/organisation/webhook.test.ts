import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack.js";
import { query, send } from "./helpers.js";

/** `triggerWebhookTestDelivery`: a sample event reaches a local endpoint; failures are data or coded errors. */

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
}

let stack: Stack;
let receiver: Server;
const received: Received[] = [];

const MUTATION = `mutation($id: ID!) { triggerWebhookTestDelivery(webhookEndpointId: $id) {
  __typename ... on WebhookDelivery { id status attemptsCount nextAttemptAt eventTopic event { id topic } webhookEndpoint { id } }
  ... on MutationError { message fields } } }`;

beforeAll(async () => {
  // `/hook` accepts every event; `/broken` answers 500
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") });
      res.statusCode = req.url === "/hook" ? 204 : 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  stack = await startStack({
    subgraphs: ["organisation"],
    directory: {
      webhookEndpoints: [
        { id: "1", url: `${base}/hook`, isActive: true },
        { id: "2", url: `${base}/broken`, isActive: true },
        { id: "3", url: `${base}/hook`, isActive: false },
      ],
    },
  });
});

afterAll(async () => {
  await stack?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe("triggerWebhookTestDelivery", () => {
  it("a test delivery brings a sample employee.created event to the endpoint and is delivered", async () => {
    received.length = 0;
    const data = await query(stack, MUTATION, { id: "1" });
    const delivery = data.triggerWebhookTestDelivery;
    expect(delivery).toMatchObject({ status: "DELIVERED", attemptsCount: 1, nextAttemptAt: null, webhookEndpoint: { id: "1" } });
    expect(delivery.eventTopic).toBe("employee.created");
    // the event the delivery sent is read back from the directory
    expect(delivery.event.topic).toBe("employee.created");
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe("/hook");
    expect(received[0]!.body).toMatchObject({ id: delivery.event.id, type: "employee.created" });
  });

  it("a test delivery the endpoint refuses is undelivered with a next attempt planned", async () => {
    received.length = 0;
    const data = await query(stack, MUTATION, { id: "2" });
    const delivery = data.triggerWebhookTestDelivery;
    expect(delivery).toMatchObject({ status: "UNDELIVERED", webhookEndpoint: { id: "2" } });
    expect(delivery.attemptsCount).toBeGreaterThanOrEqual(1);
    expect(Date.parse(delivery.nextAttemptAt)).toBeGreaterThan(Date.now());
    expect(received.map((r) => r.path)).toEqual(["/broken"]);
  });

  it("refused attempts in a row are counted until the fifth fails the delivery", async () => {
    // the demo data may already hold refused deliveries to this endpoint: the sequence goes on from there
    const counts: number[] = [];
    let last: any;
    do {
      last = (await query(stack, MUTATION, { id: "2" })).triggerWebhookTestDelivery;
      counts.push(last.attemptsCount);
    } while (last.status === "UNDELIVERED" && counts.length < 10);
    expect(last).toMatchObject({ status: "FAILED", attemptsCount: 5, nextAttemptAt: null });
    expect(counts).toEqual(Array.from({ length: counts.length }, (_, i) => 5 - counts.length + 1 + i));
  });

  it("after a failed delivery the next test delivery starts a new sequence", async () => {
    const data = await query(stack, MUTATION, { id: "2" });
    expect(data.triggerWebhookTestDelivery).toMatchObject({ status: "UNDELIVERED", attemptsCount: 1 });
  });

  it("an unknown endpoint is a NotFoundError naming the argument, as data", async () => {
    const response = await send(stack, MUTATION, { id: "404" });
    expect(response.errors).toBeUndefined();
    expect(response.data.triggerWebhookTestDelivery).toMatchObject({ __typename: "NotFoundError", fields: ["webhookEndpointId"], message: expect.any(String) });
    expect(response.data.triggerWebhookTestDelivery.message).not.toMatch(/service-api|POST/);
  });

  it("an inactive endpoint is an InvalidInputError naming the argument, as data", async () => {
    const response = await send(stack, MUTATION, { id: "3" });
    expect(response.errors).toBeUndefined();
    expect(response.data.triggerWebhookTestDelivery).toMatchObject({ __typename: "InvalidInputError", fields: ["webhookEndpointId"] });
    expect(response.data.triggerWebhookTestDelivery.message).toMatch(/inactive/);
  });

  it("an empty endpoint id is an InvalidInputError, as data, made before any delivery", async () => {
    received.length = 0;
    const response = await send(stack, MUTATION, { id: "" });
    expect(response.errors).toBeUndefined();
    expect(response.data.triggerWebhookTestDelivery).toMatchObject({ __typename: "InvalidInputError", fields: ["webhookEndpointId"] });
    expect(received).toHaveLength(0);
  });
});
