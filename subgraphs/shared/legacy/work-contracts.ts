import type DataLoader from "dataloader";
import type { Static } from "@sinclair/typebox";
import type * as Legacy from "../../../contract/legacy-shapes.js";
import { type SubgraphContext } from "../graphql/index.js";
import { compareText, groupedLoader, isLegacyId, legacyAllByValues, type UpstreamSession } from "../upstream/index.js";

/**
 * The one legacy read two subgraphs make (docs/performance.md#what-a-company-router-gets): the work
 * contracts of employees. legacy-time owns `WorkContract` and reads them for its fields; people
 * serves `Employment.workContract` from the same read, so that any router's people fetch
 * carries the contract instead of sending legacy-time a fetch after it.
 */

/** A legacy work contract as the directory writes it (docs/interface.md#legacy-work-contract). */
export type RestWorkContract = Static<typeof Legacy.WorkContract>;

export const WORK_CONTRACTS_PATH = "/directory/api/4.0/work-contracts";

/** the largest page of the work-contract and time-entry lists (docs/interface.md#legacy-paging) */
export const LEGACY_PAGE = 1000;

/** The work contracts of each employee (by owner id), by start date: one list call per 100 owners, pages of 1000. */
export const workContractsByOwnerLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("workContractsByOwner", () =>
    groupedByOwner<RestWorkContract>(
      ctx.upstream,
      WORK_CONTRACTS_PATH,
      (owners) => legacyAllByValues<RestWorkContract>(ctx.upstream, WORK_CONTRACTS_PATH, "ownerId", owners, { limit: LEGACY_PAGE }, "page"),
      (a, b) => compareText(a.startsOn, b.startsOn) || a.id - b.id,
    ),
  );

/**
 * The work contract of an employment (the same id), found among its owner's: null for an employment
 * without owner or whose id the legacy API cannot have. The owners of one request share their calls.
 */
export async function contractOfEmployment(ctx: SubgraphContext, employment: { id: string; employee?: { id: string } | null }): Promise<RestWorkContract | null> {
  const ownerId = employment.employee?.id;
  if (!ownerId || !isLegacyId(employment.id)) return null;
  const contracts = await workContractsByOwnerLoader(ctx).load(ownerId);
  return contracts.find((c) => String(c.id) === employment.id) ?? null;
}

/**
 * A one-to-many loader over owner ids (the shared `groupedLoader` over a legacy list), each
 * owner's items in `order`: keys that cannot be legacy ids get [] without a call.
 */
export function groupedByOwner<T extends { ownerId: number }>(
  session: UpstreamSession,
  path: string,
  fetch: (owners: string[]) => Promise<T[]>,
  order: (a: T, b: T) => number,
): DataLoader<string, T[]> {
  const read = async (owners: string[]) => {
    const valid = [...new Set(owners.filter(isLegacyId))];
    return valid.length > 0 ? (await fetch(valid)).sort(order) : [];
  };
  return groupedLoader<T>(session, path, "ownerId", (item) => String(item.ownerId), {}, read);
}
