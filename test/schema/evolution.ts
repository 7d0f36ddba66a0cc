import { CriticalityLevel, diff, type Change } from "@graphql-inspector/core";
import type { GraphQLSchema } from "graphql";

/**
 * The schema check of a release (docs/deploying.md#versioning): the changes from the last released
 * supergraph's API schema (schema/released/supergraph.graphql) to the composed one, by
 * @graphql-inspector/core, and those of its breaking changes that CHANGELOG.md does not record.
 * A breaking change is recorded when its path (`Employee.givenName`, `EmploymentSort.START_DATE_ASC`)
 * is written in backquotes under a `### Breaking` heading of a section above the released version's.
 */

export async function breakingChanges(released: GraphQLSchema, current: GraphQLSchema): Promise<Change[]> {
  return (await diff(released, current)).filter((change) => change.criticality.level === CriticalityLevel.Breaking);
}

/** The `### Breaking` entries of the changelog's sections newer than `releasedVersion`: the backquoted paths. */
export function recordedBreakingChanges(changelog: string, releasedVersion: string): Set<string> {
  const released = changelog.search(new RegExp(`^## \\[?${releasedVersion.replace(/\./g, "\\.")}\\]?`, "m"));
  if (released < 0) throw new Error(`CHANGELOG.md has no section for the released version ${releasedVersion}`);
  const recorded = new Set<string>();
  let inBreaking = false;
  for (const line of changelog.slice(0, released).split("\n")) {
    if (line.startsWith("#")) inBreaking = /^### Breaking\b/.test(line);
    else if (inBreaking) for (const m of line.matchAll(/`([^`]+)`/g)) recorded.add(m[1]!);
  }
  return recorded;
}

/** The breaking changes the changelog does not record, as lines for a failure message. */
export function unrecorded(changes: Change[], recorded: ReadonlySet<string>): string[] {
  return changes.filter((change) => !recorded.has(change.path ?? "")).map((change) => `${change.path}: ${change.message}`);
}

/** The released version, from the first line of the released supergraph (`# The supergraph of directory-graph 0.1.0, ...`). */
export function releasedVersionOf(releasedSdl: string): string {
  const match = /^# The supergraph of directory-graph (\d+\.\d+\.\d+)\b/.exec(releasedSdl);
  if (!match) throw new Error("schema/released/supergraph.graphql must start with `# The supergraph of directory-graph <version>`");
  return match[1]!;
}
