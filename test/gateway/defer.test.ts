import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { upstreamCalls } from "../helpers/stack.js";

/**
 * `@defer` is not served (docs/frontends.md#apollo-client): the gateway's schema does not declare
 * it, so an operation using it is a validation error naming the directive, whatever the client
 * accepts, before any upstream call; a client sends the deferred part as its own query.
 */

const stack = useGatewayStack();

describe("@defer", () => {
  it("is refused as an unknown directive, with no upstream call, even when the client accepts incremental delivery", async () => {
    stack.resetStats();
    const res = await fetch(stack.gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "multipart/mixed; deferSpec=20220824, application/json" },
      body: JSON.stringify({ query: `{ employee(id: "5") { id ... @defer { givenName } } }` }),
    });
    const body = (await res.json()) as { data?: unknown; errors: Array<{ message: string; extensions: { code: string } }> };
    expect(res.status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors[0]).toMatchObject({ message: 'Unknown directive "@defer".', extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    expect(upstreamCalls(stack.stats())).toBe(0);
  });
});
