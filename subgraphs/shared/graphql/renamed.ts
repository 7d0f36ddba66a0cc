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

/**
 * Description and deprecation reason of a name deprecated after 0.1.0, so that one name says one
 * thing across the graph (issue 35: `lastUpdatedAt` everywhere, not `lastModifiedAt` beside it);
 * `why` says why the new one was chosen.
 */
export function formerName(now: string, why: string): { description: string; deprecationReason: string } {
  return { description: `\`${now}\` under its former name.`, deprecationReason: `Use \`${now}\`: ${why}` };
}

/**
 * Description and deprecation reason of a raw id whose node the graph now returns by an edge
 * (`WorkContract.typeId` beside `template`): the id stays, deprecated, for at least one minor
 * version; the edge's `{ id }` is the same value at no extra cost.
 */
export function replacedByEdge(edge: string): { description: string; deprecationReason: string } {
  return {
    description: `The id of \`${edge}\`, a legacy integer.`,
    deprecationReason: `Use \`${edge}\`: the node itself; \`${edge} { id }\` is this id and costs nothing more.`,
  };
}
