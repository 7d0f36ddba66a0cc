import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { ENTITIES_QUERY, query, representations } from "./helpers.js";

/** Upstream failures as the error codes of docs/graph.md#error-codes: the field is null and one error names the failed call. */

describe("an unavailable upstream", () => {
  // a Retry-After is not waited for, and a hanging call gives up quickly
  const stack = useStack({ subgraphs: ["organisation"], env: { DIRECTORY_TIMEOUT_MS: "300", DIRECTORY_MAX_RETRY_AFTER_S: "0" } });
  beforeAll(async () => {
    // a first request fetches the service token, so that the faults below hit the API calls
    await query(stack, `{ taxonomies(first: 1) { nodes { id } } }`);
  });
  afterEach(() => stack.directory.faults.clear());

  const unavailable = () => stack.directory.faults.set({ errorRate: 1, errorStatus: 503 });

  it("a single read answered 503 is UPSTREAM_UNAVAILABLE naming the call", async () => {
    unavailable();
    const response = await stack.gql(stack.subgraphs.organisation!.url, `{ department(id: "3") { id } }`);
    expect(response.data).toEqual({ department: null });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.extensions).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      upstream: { method: "GET", path: "/departments/3", status: 503 },
    });
  });

  it("a connection answered 503 is UPSTREAM_UNAVAILABLE", async () => {
    unavailable();
    const response = await stack.gql(stack.subgraphs.organisation!.url, `{ legalEntities { nodes { id } } }`);
    expect(response.data).toEqual({ legalEntities: null });
    expect(response.errors![0]!.extensions).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", upstream: { path: "/legal-entities" } });
  });

  it("references answered 503 are null, each with UPSTREAM_UNAVAILABLE", async () => {
    unavailable();
    const response = await stack.gql(stack.subgraphs.organisation!.url, ENTITIES_QUERY, { r: representations("BusinessEstablishment", ["1", "2"]) });
    expect(response.data).toEqual({ _entities: [null, null] });
    expect(response.errors!.map((e) => e.extensions?.code)).toEqual(["UPSTREAM_UNAVAILABLE", "UPSTREAM_UNAVAILABLE"]);
  });

  it("references that get no answer in time are null, each with UPSTREAM_UNAVAILABLE", async () => {
    stack.directory.faults.set({ hangRate: 1 });
    const response = await stack.gql(stack.subgraphs.organisation!.url, ENTITIES_QUERY, { r: representations("Department", ["2", "3", "4"]) });
    expect(response.data).toEqual({ _entities: [null, null, null] });
    expect(response.errors!.map((e) => e.extensions?.code)).toEqual(["UPSTREAM_UNAVAILABLE", "UPSTREAM_UNAVAILABLE", "UPSTREAM_UNAVAILABLE"]);
    expect(response.errors![0]!.extensions?.upstream).toMatchObject({ method: "GET", path: "/departments" });
  });

  it("a 429 is RATE_LIMITED with retryAfter, on the field whose call it refused", async () => {
    // one call per second: the establishment is read, its legal entity is refused
    stack.directory.faults.set({ rateLimitRequests: 1, rateLimitWindowSeconds: 1 });
    const response = await stack.gql(stack.subgraphs.organisation!.url, `{ businessEstablishment(id: "1") { id legalEntity { id } } }`);
    expect(response.data).toEqual({ businessEstablishment: { id: "1", legalEntity: null } });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!).toMatchObject({
      path: ["businessEstablishment", "legalEntity"],
      extensions: { code: "RATE_LIMITED", retryAfter: 1, upstream: { status: 429 } },
    });
  });

  it("the mutation answered 503 is UPSTREAM_UNAVAILABLE", async () => {
    unavailable();
    const response = await stack.gql(stack.subgraphs.organisation!.url, `mutation { triggerWebhookTestDelivery(webhookEndpointId: "1") { ... on WebhookDelivery { id } } }`);
    expect(response.data).toEqual({ triggerWebhookTestDelivery: null });
    expect(response.errors![0]!.extensions).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", upstream: { method: "POST", status: 503 } });
  });
});

describe("forwarded credentials", () => {
  const stack = useStack({ subgraphs: ["organisation"], env: { DIRECTORY_AUTH: "forward" } });

  it("a caller without credentials is UNAUTHENTICATED", async () => {
    const response = await stack.gql(stack.subgraphs.organisation!.url, `{ department(id: "2") { id } }`);
    expect(response.errors![0]!.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("a caller whose token lacks the scope is FORBIDDEN", async () => {
    const token = await stack.token("demo-limited");
    const response = await stack.gql(stack.subgraphs.organisation!.url, `{ legalEntities { nodes { id } } }`, {}, { authorization: `Bearer ${token}` });
    expect(response.errors![0]!.extensions).toMatchObject({ code: "FORBIDDEN", upstream: { status: 403 } });
  });

  it("a field the caller may not read is null with FORBIDDEN while the others are answered", async () => {
    const token = await stack.token("demo-limited");
    const response = await stack.gql(
      stack.subgraphs.organisation!.url,
      `{ department(id: "2") { id } legalEntity(id: "1") { id } }`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(response.data).toEqual({ department: { id: "2" }, legalEntity: null });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!).toMatchObject({ path: ["legalEntity"], extensions: { code: "FORBIDDEN" } });
  });

  it("a caller with the scope reads with its own token", async () => {
    const token = await stack.token("demo-limited");
    const response = await stack.gql(stack.subgraphs.organisation!.url, `{ department(id: "2") { id parent { id } } }`, {}, { authorization: `Bearer ${token}` });
    expect(response.errors).toBeUndefined();
    expect(response.data.department).toEqual({ id: "2", parent: { id: "1" } });
  });
});
