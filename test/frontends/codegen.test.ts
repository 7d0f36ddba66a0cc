import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codegenConfig } from "../../codegen.js";
import { REPO_ROOT, runCodegen } from "../helpers/frontends.js";

/**
 * graphql-codegen's client preset with the repository's configuration (codegen.ts) over
 * schema/api.graphql and operations/, into a temp dir, then `tsc --strict` over its output and a
 * file that pins the types of the custom scalars: a scalar left `unknown` (no mapping) or `any`
 * fails the type check. The temp dir is inside the repository (`.generated/`, ignored by git) so
 * that the output resolves `@graphql-typed-document-node/core` from node_modules as a frontend's would.
 */

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
let dir: string;

beforeAll(async () => {
  dir = await runCodegen();
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

// exactly this type: `unknown` and `any` are not `string`
const SCALAR_CHECKS = `import type { EmployeeProfileQuery, TimesheetQuery, TimesheetQueryVariables, UpdateTimeEntryMutation } from "./gql/graphql";
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Profile = NonNullable<EmployeeProfileQuery["employee"]>;
type Entry = NonNullable<NonNullable<TimesheetQuery["employee"]>["timeEntries"]>[number];
type Attribute = NonNullable<Profile["attributes"]>[number];
export const dateIsString: Exactly<NonNullable<Profile["applicableEmployment"]>["startsOn"], string> = true;
export const dateVariableIsString: Exactly<TimesheetQueryVariables["from"], string> = true;
export const localDateTimeIsString: Exactly<Entry["startsAt"], string> = true;
export const jsonIsAJsonValue: Exactly<Attribute["value"], string | number | boolean | null | { [key: string]: unknown } | unknown[]> = true;
type Updated = UpdateTimeEntryMutation["updateTimeEntry"];
export const mutationErrorsAreTyped: Exactly<Extract<Updated, { __typename: "TimeEntryValidationError" }>["message"], string> = true;
`;

describe("graphql-codegen (client preset) over operations/", () => {
  it("types every operation, with the five custom scalars mapped, and tsc --strict accepts the output", async () => {
    await writeFile(join(dir, "scalars.ts"), SCALAR_CHECKS);
    const files = ["gql/index.ts", "gql/gql.ts", "gql/graphql.ts", "scalars.ts"].map((f) => join(dir, f));
    const check = run(process.execPath, [tsc, "--strict", "--noEmit", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--skipLibCheck", ...files], { cwd: REPO_ROOT });
    await expect(check.catch((err: { stdout: string }) => Promise.reject(new Error(err.stdout)))).resolves.toBeDefined();
    const types = await readFile(join(dir, "gql", "graphql.ts"), "utf8");
    for (const name of ["DirectorySearchQuery", "EmployeeProfileQuery", "OrgChartQuery", "TimesheetQuery", "UpdateTimeEntryMutation"]) expect(types).toContain(`export type ${name} =`);
  }, 120_000);

  it("maps each scalar of schema/api.graphql, so strictScalars leaves none unknown", async () => {
    const api = await readFile(new URL("../../schema/api.graphql", import.meta.url), "utf8");
    const custom = [...api.matchAll(/^scalar (\w+)/gm)].map((m) => m[1]).sort();
    const config = codegenConfig("x/").generates["x/"] as { config: { scalars: Record<string, string> } };
    expect(Object.keys(config.config.scalars).sort()).toEqual(custom);
  });
});
