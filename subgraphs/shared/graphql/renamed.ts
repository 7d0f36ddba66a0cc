/**
 * The names before a rename, kept `@deprecated` for at least one minor version (docs/graph.md,
 * "Naming"): the description and the reason of each, the reason naming the new name first
 * (`Use \`startsOn\`: ...`), as test/schema/evolution.test.ts requires.
 */

/** The release that renamed what these helpers describe. */
const RENAMED_IN = "0.1.0";

/** Description and deprecation reason of the old name of `now`; `why` says why it was renamed. */
export function renamedFrom(now: string, why: string): { description: string; deprecationReason: string } {
  return { description: `\`${now}\` under its name before ${RENAMED_IN}.`, deprecationReason: `Use \`${now}\`: renamed in ${RENAMED_IN}, ${why}` };
}
