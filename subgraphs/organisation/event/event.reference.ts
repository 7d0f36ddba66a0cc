import type { SubgraphContext } from "../../shared/graphql/index.js";
import { eventLoader } from "../loaders.js";

export const eventReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => eventLoader(ctx).load(reference.id),
};
