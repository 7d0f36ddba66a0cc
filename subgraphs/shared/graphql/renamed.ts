import { badUserInput } from "../../../platform/user-input.js";

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

/**
 * An input (a mutation's input object, a list's filter) read with its deprecated names as the new
 * ones: each `[old, now]` pair of `renamed` whose old name is given is moved to its new one, an
 * explicit null counting as given. An old and a new name given together is `conflict`, which the
 * caller refuses before any upstream call: a mutation as its InvalidInputError (data), a filter as
 * BAD_USER_INPUT (docs/graph.md "Naming").
 */
export function readRenamed<T extends object>(given: T, renamed: ReadonlyArray<readonly [keyof T & string, keyof T & string]>): { input: T } | { conflict: { names: [string, string]; message: string } } {
  const input: T = { ...given };
  for (const [old, now] of renamed) {
    if (given[old] === undefined) continue;
    if (given[now] !== undefined) return { conflict: { names: [old, now], message: `${old} is the deprecated name of ${now}: give only ${now}` } };
    input[now] = given[old] as T[typeof now];
    delete input[old];
  }
  return { input };
}

/**
 * A list's filter (or a field's arguments) read with its deprecated names as the new ones
 * (`readRenamed`); an old and a new name given together is BAD_USER_INPUT naming both below
 * `argument` (`filter.startDate`), before any upstream call.
 */
export function readRenamedFilter<T extends object>(given: T, renamed: ReadonlyArray<readonly [keyof T & string, keyof T & string]>, argument = "filter"): T {
  const read = readRenamed(given, renamed);
  if ("input" in read) return read.input;
  const [old, now] = read.conflict.names.map((n) => (argument === "" ? n : `${argument}.${n}`));
  throw badUserInput(`${old} is the deprecated name of ${now}: give only ${now}`, old!);
}
