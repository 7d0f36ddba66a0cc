import { readFileSync } from "node:fs";
import { parse } from "graphql";
import { Supergraph, operationFromDocument } from "@apollo/federation-internals";
import { QueryPlanner, prettyFormatQueryPlan } from "@apollo/query-planner";
import { loadOperations } from "../harness/operations.js";
import { LARGE_LIST } from "./floors.js";

/**
 * `npx tsx bench/plans.ts [OperationName…]`: the query plan the gateway's planner makes for each
 * operation of operations/ and the benchmark's large list, from the committed supergraph: which
 * subgraph answers what, in which order.
 */

const supergraph = Supergraph.build(readFileSync(new URL("../schema/supergraph.graphql", import.meta.url), "utf8"));
const planner = new QueryPlanner(supergraph);
const wanted = process.argv.slice(2);
const ops = [...loadOperations().map((o) => ({ name: o.name, source: o.source })), { name: "LargeList", source: LARGE_LIST }];
for (const op of ops.filter((o) => wanted.length === 0 || wanted.includes(o.name))) {
  const plan = planner.buildQueryPlan(operationFromDocument(supergraph.schema, parse(op.source)));
  console.log(`===== ${op.name}\n${prettyFormatQueryPlan(plan)}`);
}
