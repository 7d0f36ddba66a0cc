import { readFileSync } from "node:fs";
import { parse } from "graphql";
import { Supergraph, operationFromDocument } from "@apollo/federation-internals";
import { QueryPlanner, type QueryPlan } from "@apollo/query-planner";
import { loadOperations } from "../../harness/operations.js";

/**
 * Query plans of operations/ from the installed planner, as the gateway plans them (its API schema,
 * its QueryPlanner over the committed supergraph), and as recorded in test/gateway/fixtures/plans/
 * (`npx tsx scripts/record-plans.ts`): JSON, the fetches' parsed documents without their locations.
 */

export const PLANS_DIR = new URL("../gateway/fixtures/plans/", import.meta.url);

export function plannedOperations(): Array<{ name: string; plan: QueryPlan }> {
  return loadOperations().map((o) => ({ name: o.name, plan: planOf(o.source, o.name) }));
}

let planner: { plan(source: string, name: string): QueryPlan } | undefined;

/** The installed planner's plan of one operation over the committed supergraph. */
export function planOf(source: string, operationName: string): QueryPlan {
  if (!planner) {
    const supergraph = Supergraph.build(readFileSync(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8"));
    const apiSchema = supergraph.apiSchema();
    const queryPlanner = new QueryPlanner(supergraph);
    planner = { plan: (text, name) => queryPlanner.buildQueryPlan(operationFromDocument(apiSchema, parse(text), { operationName: name })) };
  }
  return planner.plan(source, operationName);
}

/** A plan as a fixture holds it: the JSON of its nodes, without the parsed documents' `loc`. */
export function planJson(plan: QueryPlan): string {
  return JSON.stringify(plan, (key, value: unknown) => (key === "loc" ? undefined : value), 2) + "\n";
}

/** A recorded plan, read back. */
export function recordedPlan(name: string): QueryPlan {
  return JSON.parse(readFileSync(new URL(`${name}.json`, PLANS_DIR), "utf8")) as QueryPlan;
}
