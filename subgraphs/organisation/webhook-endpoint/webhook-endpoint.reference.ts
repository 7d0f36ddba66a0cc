import type { SubgraphContext } from "../../shared/graphql/index.js";
import { webhookEndpointLoader } from "../loaders.js";

export const webhookEndpointReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => webhookEndpointLoader(ctx).load(reference.id),
};
