import { writeFileSync } from "node:fs";
import { planJson, plannedOperations, PLANS_DIR } from "../test/helpers/plans.js";

/**
 * `npx tsx scripts/record-plans.ts`: records the installed planner's plan of each operation of
 * operations/ into test/gateway/fixtures/plans/, which test/gateway/apollo-internals.test.ts
 * compares with the planner's (again after an upgrade of
 * @apollo/gateway: docs/performance.md#the-gateways-seams).
 */
for (const { name, plan } of plannedOperations()) {
  writeFileSync(new URL(`${name}.json`, PLANS_DIR), planJson(plan));
  console.log(`${name}.json`);
}
