import { readdirSync, readFileSync } from "node:fs";
import { Kind, parse, type OperationDefinitionNode } from "graphql";

/** The operations of `operations/`: the screens real frontends send. */

export const OPERATIONS_DIR = new URL("../operations/", import.meta.url);

export interface Operation {
  /** the operation's name, e.g. `DirectorySearch` */
  name: string;
  /** `directory-search.graphql` */
  file: string;
  kind: "query" | "mutation";
  source: string;
}

export function loadOperations(dir: URL = OPERATIONS_DIR): Operation[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".graphql"))
    .sort()
    .map((file) => {
      const source = readFileSync(new URL(file, dir), "utf8");
      const operations = parse(source).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      if (operations.length !== 1 || !operations[0]!.name) throw new Error(`operations/${file} must hold exactly one named operation`);
      const op = operations[0]!;
      // the tour, the bench and the tests run every operation here as one request and answer; a
      // subscription (served: docs/graph.md#subscriptions) has no place among them
      if (op.operation === "subscription") throw new Error(`operations/${file}: operations/ holds queries and mutations (run as one request each); list a subscription in the trusted-documents manifest of its frontend`);
      return { name: op.name!.value, file, kind: op.operation, source };
    });
}

/**
 * The README tour's variables of each operation: valid in the demo company of
 * `DIRECTORY_TODAY=2026-06-15` (the date the tests use; the ids of time entries depend on it).
 */
export const TOUR_VARIABLES: Record<string, Record<string, unknown>> = {
  DirectorySearch: { search: "ma", after: null },
  EmployeeProfile: { id: "10" },
  OrgChart: { departmentId: "5" },
  Timesheet: { id: "10", from: "2026-06-08", to: "2026-06-14" },
  UpdateTimeEntry: { id: "100095", input: { duration: "02:30:00" } },
};
