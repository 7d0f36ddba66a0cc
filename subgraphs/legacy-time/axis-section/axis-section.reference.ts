import type { SubgraphContext } from "../../shared/graphql/index.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import { axisSectionLoader } from "../loaders.js";
import { assertCaller } from "../visibility.js";
import type { RestAxisSection } from "../rest.js";

/** `_entities` batches become one `/api/v3/axisSections?id=` call per 100 sections. */
export const axisSectionReference = {
  async __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestAxisSection | null> {
    if (!isLegacyId(reference.id)) return null;
    const [, section] = await Promise.all([assertCaller(ctx), axisSectionLoader(ctx).load(reference.id)]);
    return section;
  },
};
