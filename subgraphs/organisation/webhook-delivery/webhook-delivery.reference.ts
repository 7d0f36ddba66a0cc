import type { SubgraphContext } from "../../shared/graphql/index.js";
import { webhookDeliveryLoader } from "../loaders.js";

export const webhookDeliveryReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => webhookDeliveryLoader(ctx).load(reference.id),
};
