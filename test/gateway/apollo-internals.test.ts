import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PlanNode } from "@apollo/query-planner";
import { apolloModules, CHECKED_VERSIONS, checkInternals, installedVersions, INTERNALS, type ApolloModules } from "../../gateway/apollo/internals.js";
import { planJson, plannedOperations, recordedPlan } from "../helpers/plans.js";

/**
 * Every internal of @apollo/gateway and @apollo/query-planner that gateway/apollo/ relies on, checked
 * against the installed packages: this fails the build when an upgrade renames or reshapes one,
 * before the gateway would fall back to stock @apollo/gateway in production (apollo-fallback.test.ts).
 * After an upgrade: check each patch against the new code, then CHECKED_VERSIONS, package.json and
 * the recorded plans (scripts/record-plans.ts) together (docs/performance.md#the-gateways-seams).
 */

describe("the internals gateway/apollo/ patches", () => {
  it("the installed versions are the checked ones, pinned exactly in package.json, and the one check passes", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { dependencies: Record<string, string> };
    expect(installedVersions()).toEqual(CHECKED_VERSIONS);
    expect(pkg.dependencies["@apollo/gateway"]).toBe(CHECKED_VERSIONS.gateway);
    expect(pkg.dependencies["@apollo/query-planner"]).toBe(CHECKED_VERSIONS.queryPlanner);
    expect(checkInternals()).toEqual({ ok: true });
  });

  it.each(INTERNALS.map((check) => [check.name, check] as const))("%s is there, with the shape the patch uses", (_name, check) => {
    expect(check.problem(apolloModules())).toBeNull();
  });

  it("any other version fails the check, with the reason the warning gives", () => {
    expect(checkInternals({ gateway: "2.14.5", queryPlanner: "2.14.4" })).toMatchObject({ ok: false, reason: expect.stringContaining("@apollo/gateway 2.14.5") });
    expect(checkInternals({ gateway: "2.14.4", queryPlanner: "2.15.0" })).toMatchObject({ ok: false, reason: expect.stringContaining("@apollo/query-planner 2.15.0") });
  });

  it("each check sees its internal missing or reshaped", () => {
    const real = apolloModules();
    const problems = (modules: Partial<ApolloModules>) => INTERNALS.map((c) => c.problem({ ...real, ...modules })).filter((p) => p !== null);
    const withPrototype = (members: Record<string, unknown>) => {
      class Source {}
      Object.assign(Source.prototype, { ...Object.fromEntries(["sendRequest", "parseBody", "errorFromResponse", "process"].map((m) => [m, real.gateway.RemoteGraphQLDataSource.prototype[m as "process"]])), ...members });
      return { gateway: { ...real.gateway, RemoteGraphQLDataSource: Source } as never };
    };
    expect(problems(withPrototype({ sendRequest: undefined }))).toEqual(["sendRequest is undefined, not a function"]);
    expect(problems(withPrototype({ sendRequest: async (request: unknown) => request }))).toEqual(["sendRequest takes 1 parameters, not 2"]);
    expect(problems(withPrototype({ process: async (options: unknown) => options }))).toEqual(["process no longer reads the request's kind"]);
    expect(problems({ resultShaping: {} })).toEqual(["the export computeResponse is missing"]);
    expect(problems({ resultShaping: Object.freeze({ computeResponse: real.resultShaping.computeResponse }) })).toEqual(["the export computeResponse cannot be replaced (not a writable, configurable value)"]);
    expect(problems({ federationInternals: { ...real.federationInternals } })).toEqual(["the index re-exports operationFromDocument as a copy: a replacement would not be seen"]);
    expect(problems({ federationInternals: { ...real.federationInternals, isSubtype: undefined, operationFromDocument: undefined } }).at(-1)).toBe("isSubtype is missing");
  });
});

describe("the planner's plans, as recorded (the fetch names the metrics' operation labels read)", () => {
  const planned = plannedOperations();

  it("the installed planner plans operations/ as recorded in fixtures/plans/ ", () => {
    for (const { name, plan } of planned) expect(planJson(plan), name).toBe(planJson(recordedPlan(name)));
  });

  it("every node has the fields a plan is read by, and each fetch the name `Operation__subgraph__N`", () => {
    const kinds = new Set<string>();
    const walk = (node: PlanNode, operation: string): void => {
      kinds.add(node.kind);
      switch (node.kind) {
        case "Fetch":
          expect(node).toMatchObject({ serviceName: expect.any(String), operation: expect.any(String), operationKind: expect.stringMatching(/^(query|mutation)$/), variableUsages: expect.any(Array) });
          expect(node.operationName).toBe(`${operation}__${node.serviceName.replace(/-/g, "_")}__${node.operationName!.split("__").at(-1)}`);
          expect(node.operationName).toMatch(/__\d+$/);
          expect(node.operation.startsWith(`${node.operationKind} ${node.operationName}(`) || node.operation.startsWith(`${node.operationKind} ${node.operationName}{`)).toBe(true);
          if (node.requires) {
            for (const required of node.requires) expect(required).toMatchObject({ kind: "InlineFragment", typeCondition: expect.any(String), selections: expect.any(Array) });
          }
          return;
        case "Flatten":
          expect(node.path.every((segment) => typeof segment === "string")).toBe(true);
          return walk(node.node, operation);
        case "Sequence":
        case "Parallel":
          expect(node.nodes.length).toBeGreaterThan(0);
          return node.nodes.forEach((n) => walk(n, operation));
        default:
          throw new Error(`${operation}: a ${node.kind} node, which the rewrites leave alone`);
      }
    };
    for (const { name, plan } of planned) walk(plan.node as PlanNode, name);
    expect([...kinds].sort()).toEqual(["Fetch", "Flatten", "Parallel", "Sequence"]);
  });
});
