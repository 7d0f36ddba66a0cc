import { describe, expect, it } from "vitest";
import { ANONYMOUS, MAX_OPERATION_NAMES, Metrics, OTHER } from "../../platform/metrics.js";
import { parsePrometheus, sumOf } from "../../harness/prometheus.js";

/** The registry's bounded labels and its gauges of upstream clients (a registry of its own, not the process's). */

describe("operation names as labels", () => {
  it("keeps known names always, the first others up to the cap, then answers `other`", () => {
    const metrics = new Metrics({ defaults: false });
    metrics.knowOperations(["EmployeeProfile"]);
    for (let i = 0; i < MAX_OPERATION_NAMES; i++) expect(metrics.operationLabel(`Guess${i}`)).toBe(`Guess${i}`);
    expect(metrics.operationLabel("OneTooMany")).toBe(OTHER);
    // a name already seen stays, a known name passes after the cap
    expect(metrics.operationLabel("Guess3")).toBe("Guess3");
    expect(metrics.operationLabel("EmployeeProfile")).toBe("EmployeeProfile");
  });

  it("labels a gateway's planned fetch with its operation's name, and a missing or odd name with a fixed word", () => {
    const metrics = new Metrics({ defaults: false });
    expect(metrics.operationLabel("EmployeeProfile__people__0")).toBe("EmployeeProfile");
    expect(metrics.operationLabel("EmployeeProfile__legacy-time__12")).toBe("EmployeeProfile");
    expect(metrics.operationLabel(null)).toBe(ANONYMOUS);
    expect(metrics.operationLabel("")).toBe(ANONYMOUS);
    expect(metrics.operationLabel("not a name")).toBe(OTHER);
    expect(metrics.operationLabel("x".repeat(101))).toBe(OTHER);
  });
});

describe("the upstream gauges", () => {
  it("sum the ETag caches and the held reads, and show each API's most open breaker", async () => {
    const metrics = new Metrics({ defaults: false });
    const stopA = metrics.watchUpstream({ etagEntries: () => 3, etagBytes: () => 300, heldEntries: () => 4, heldBytes: () => 400, breakers: () => ({ current: "closed", legacy: "closed" }), budget: () => ({ interactive: { used: 30, limit: 40 }, background: { used: 2, limit: 10 } }) });
    metrics.watchUpstream({ etagEntries: () => 2, etagBytes: () => 200, heldEntries: () => 1, heldBytes: () => 100, breakers: () => ({ current: "open", legacy: "half-open" }), budget: () => null });
    let { samples } = parsePrometheus(await metrics.registry.metrics());
    expect(sumOf(samples, "upstream_etag_cache_entries")).toBe(5);
    expect(sumOf(samples, "upstream_etag_cache_bytes")).toBe(500);
    expect(sumOf(samples, "upstream_held_entries")).toBe(5);
    expect(sumOf(samples, "upstream_held_bytes")).toBe(500);
    expect(sumOf(samples, "upstream_breaker_state", { api: "current", state: "open" })).toBe(1);
    expect(sumOf(samples, "upstream_breaker_state", { api: "current", state: "closed" })).toBe(0);
    expect(sumOf(samples, "upstream_breaker_state", { api: "legacy", state: "half-open" })).toBe(1);
    expect(sumOf(samples, "upstream_request_budget_used", { share: "interactive" })).toBe(30);
    expect(sumOf(samples, "upstream_request_budget_left", { share: "interactive" })).toBe(10);
    expect(sumOf(samples, "upstream_request_budget_left", { share: "background" })).toBe(8);
    stopA();
    ({ samples } = parsePrometheus(await metrics.registry.metrics()));
    expect(sumOf(samples, "upstream_etag_cache_entries")).toBe(2);
  });
});

describe("the replica features' counters", () => {
  it("keep the names, help texts and labels that dashboards and alerts read", async () => {
    const metrics = new Metrics({ defaults: false });
    metrics.trustedDocuments.inc({ outcome: "served" });
    metrics.sharedStateFallbacks.inc({ use: "apq" });
    metrics.sharedCacheLookups.inc({ use: "etag", result: "hit" });
    metrics.upstreamBudget.inc({ share: "background", outcome: "held" });
    metrics.refused("gateway", "refusedToken");
    const text = await metrics.registry.metrics();
    for (const help of [
      "graphql_trusted_documents_total Operations by trusted-document outcome (GATEWAY_TRUSTED_DOCUMENTS)",
      "shared_state_fallbacks_total Uses of Redis that fell back to the process's own state (Redis absent from the connection, failing or slow)",
      "shared_cache_lookups_total Lookups of a cache shared through Redis, by use and result",
      "upstream_request_budget_total Upstream requests through DIRECTORY_REQUEST_BUDGET, by share and outcome (sent, held: sent after waiting, refused: RATE_LIMITED at once)",
    ]) {
      expect(text).toContain(`# HELP ${help}\n`);
    }
    const { types, samples } = parsePrometheus(text);
    for (const name of ["graphql_trusted_documents_total", "shared_state_fallbacks_total", "shared_cache_lookups_total", "upstream_request_budget_total"]) expect(types.get(name)).toBe("counter");
    expect(sumOf(samples, "graphql_trusted_documents_total", { outcome: "served" })).toBe(1);
    expect(sumOf(samples, "shared_state_fallbacks_total", { use: "apq" })).toBe(1);
    expect(sumOf(samples, "shared_cache_lookups_total", { use: "etag", result: "hit" })).toBe(1);
    expect(sumOf(samples, "upstream_request_budget_total", { share: "background", outcome: "held" })).toBe(1);
    expect(sumOf(samples, "graphql_refusals_total", { component: "gateway", limit: "refusedToken" })).toBe(1);
  });
});
