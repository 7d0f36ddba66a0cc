import { readFileSync } from "node:fs";
import { parse } from "graphql";
import { Supergraph, operationFromDocument } from "@apollo/federation-internals";
import { QueryPlanner, prettyFormatQueryPlan } from "@apollo/query-planner";
import { LARGE_LIST } from "/work/wt/perf/bench/floors.js";
const sg = Supergraph.build(readFileSync("/work/wt/perf/schema/supergraph.graphql", "utf8"));
const planner = new QueryPlanner(sg);
const names = process.argv.slice(2);
for (const f of ["org-chart", "employee-profile", "timesheet", "directory-search"]) {
  if (names.length && !names.includes(f)) continue;
  const src = readFileSync(`/work/wt/perf/operations/${f}.graphql`, "utf8");
  const op = operationFromDocument(sg.schema, parse(src));
  console.log("=====", f); console.log(prettyFormatQueryPlan(planner.buildQueryPlan(op)));
}
if (!names.length || names.includes("large")) { const op = operationFromDocument(sg.schema, parse(LARGE_LIST)); console.log("===== large"); console.log(prettyFormatQueryPlan(planner.buildQueryPlan(op))); }
