import { describe, expect } from "vitest";
import { corpus, gateway, post, send, type HostileCase, type SentRequest } from "./harness.js";

/**
 * DIRECTORY_AUTH=forward: the caller's bearer token is the only credential. A request without
 * one is refused by the gateway before any subgraph call; a garbled or foreign token costs at most
 * the directory's refusal, one call before the operation fans out (docs/security.md#unverified-tokens);
 * no token is echoed back; the limits come before authentication.
 */

const PROFILE = `{ employee(id: "10") { id givenName } }`;

/** the operation with `authorization: <value>`, checking the value is not echoed */
function withAuthorization(value: string | ((s: Parameters<HostileCase["send"]>[0]) => Promise<string>), query = PROFILE) {
  return async (s: Parameters<HostileCase["send"]>[0]): Promise<SentRequest> => {
    const header = typeof value === "string" ? value : await value(s);
    const answer = await post(s.gateway.url, { query }, { authorization: header });
    const token = header.replace(/^\S+\s*/, "");
    if (token.length > 8) expect(JSON.stringify(answer.body)).not.toContain(token);
    return answer;
  };
}

/** tokens of the demo clients, fetched before a case runs (`prepare`) so they are not counted */
const tokens: Record<"demo-client" | "demo-limited", string> = { "demo-client": "", "demo-limited": "" };
const withTokens = async (s: Parameters<HostileCase["send"]>[0]) => {
  tokens["demo-client"] ||= await s.token("demo-client");
  tokens["demo-limited"] ||= await s.token("demo-limited");
};

const FOREIGN_JWT =
  "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlLmNvbSIsInN1YiI6ImF0dGFja2VyIiwic2NvcGUiOiJlbXBsb3llZXMucmVhZG9ubHkifQ.c2lnbmF0dXJl";

describe("hostile corpus: forward auth", () => {
  corpus(
    "forward-auth",
    [
      { name: "no Authorization header", send: gateway(PROFILE), status: 401, code: "UNAUTHENTICATED" },
      { name: "Basic credentials", send: withAuthorization(`Basic ${Buffer.from("demo-client:demo-secret").toString("base64")}`), status: 401, code: "UNAUTHENTICATED" },
      { name: "Bearer without a token", send: withAuthorization("Bearer"), status: 401, code: "UNAUTHENTICATED" },
      { name: "Bearer followed by spaces", send: withAuthorization("Bearer    "), status: 401, code: "UNAUTHENTICATED" },
      { name: "the token in the query string", prepare: withTokens, send: async (s) => post(`${s.gateway.url}?access_token=${tokens["demo-client"]}`, { query: PROFILE }), status: 401, code: "UNAUTHENTICATED" },
      { name: "the token in the request's extensions", prepare: withTokens, send: async (s) => post(s.gateway.url, { query: PROFILE, extensions: { authorization: `Bearer ${tokens["demo-client"]}` } }), status: 401, code: "UNAUTHENTICATED" },
      { name: "a mutation without a token", send: gateway(`mutation { updateTimeEntry(id: "100095", input: { duration: "01:00:00" }) { __typename } }`), status: 401, code: "UNAUTHENTICATED" },
      { name: "a garbled token costs at most the directory's refusal, before any fan-out", send: withAuthorization("Bearer not-a-token-at-all"), status: 401, code: "UNAUTHENTICATED", maxUpstreamCalls: 1 },
      { name: "a foreign JWT", send: withAuthorization(`Bearer ${FOREIGN_JWT}`), status: 401, code: "UNAUTHENTICATED", maxUpstreamCalls: 1 },
      { name: "two tokens in one header", prepare: withTokens, send: async (s) => withAuthorization(`Bearer ${tokens["demo-client"]}, Bearer ${FOREIGN_JWT}`)(s), status: 401, code: "UNAUTHENTICATED", maxUpstreamCalls: 1 },
      { name: "an 8 KB token", send: withAuthorization(`Bearer ${"A".repeat(8192)}`), status: 401, code: "UNAUTHENTICATED", maxUpstreamCalls: 1 },
      { name: "a header past node's 16 KB limit", send: (s) => send(s.gateway.url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${"A".repeat(20_000)}` }, body: JSON.stringify({ query: PROFILE }) }), status: 431 },
      {
        name: "a garbled token on a mutation writes nothing",
        send: withAuthorization("Bearer not-a-token-for-writes", `mutation { updateTimeEntry(id: "100095", input: { duration: "01:00:00" }) { __typename } }`),
        status: 401,
        code: "UNAUTHENTICATED",
        maxUpstreamCalls: 1,
        check: (_a, s) => expect(Object.keys(s.stats().byRoute).filter((r) => r.startsWith("PUT"))).toEqual([]),
      },
      // the directory refused it in a case above: remembered (DIRECTORY_REFUSED_TOKEN_TTL_S), refused before any subgraph fetch
      { name: "a token the directory just refused costs nothing the second time", send: withAuthorization("Bearer not-a-token-at-all"), status: 401, code: "UNAUTHENTICATED", maxUpstreamCalls: 0 },
      { name: "the limits come before authentication", send: gateway(`{ employee(id: "1") { ${"manager { ".repeat(30)}id${" }".repeat(30)} } }`), status: 400, code: "OPERATION_LIMIT_EXCEEDED" },
      { name: "a token does not lift the limits", prepare: withTokens, send: async (s) => withAuthorization(`Bearer ${tokens["demo-client"]}`, `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(" ")} }`)(s), status: 400, code: "OPERATION_LIMIT_EXCEEDED" },
      { name: "introspection without a token (outside production)", send: gateway(`{ __schema { queryType { name } } }`), status: 200 },
      { name: "__typename without a token", send: gateway(`{ __typename }`), status: 200 },
      { name: "a valid token reads", prepare: withTokens, send: async (s) => withAuthorization(`Bearer ${tokens["demo-client"]}`)(s), status: 200, maxUpstreamCalls: 2, check: (a) => expect(a.body.data.employee.id).toBe("10") },
      { name: "a lower-case bearer scheme reads", prepare: withTokens, send: async (s) => withAuthorization(`bearer ${tokens["demo-client"]}`)(s), status: 200, maxUpstreamCalls: 2, check: (a) => expect(a.body.errors).toBeUndefined() },
      {
        name: "a limited token sees no one outside its establishment, and no error leaks who exists",
        prepare: withTokens, send: async (s) => withAuthorization(`Bearer ${tokens["demo-limited"]}`, `{ employees(first: 100, filter: { businessEstablishmentIds: ["2"] }) { nodes { id } } }`)(s),
        status: 200,
        maxUpstreamCalls: 2,
        check: (a) => expect(a.body.data?.employees?.nodes ?? []).toEqual([]),
      },
    ],
    { env: { DIRECTORY_AUTH: "forward" } },
  );
});
