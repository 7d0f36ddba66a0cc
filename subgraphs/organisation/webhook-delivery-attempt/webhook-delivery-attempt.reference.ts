import type { SubgraphContext } from "../../shared/graphql/index.js";
import { webhookDeliveryAttemptLoader } from "../loaders.js";

export const webhookDeliveryAttemptReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => webhookDeliveryAttemptLoader(ctx).load(reference.id),
};
