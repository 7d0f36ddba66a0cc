import { Arg, Ctx, ID, Mutation, Resolver } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { requiredId } from "../filters.js";
import type { RestWebhookDelivery } from "../rest.js";
import { WebhookDelivery } from "./webhook-delivery.js";

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Mutation(() => WebhookDelivery, {
    nullable: true,
    description:
      "Sends a sample `employee.created` event to a registered webhook endpoint (beta; scope webhook-deliveries.readwrite). " +
      "The attempt is made at once: the delivery is answered with its outcome.",
  })
  triggerWebhookTestDelivery(
    @Arg("webhookEndpointId", () => ID) webhookEndpointId: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestWebhookDelivery> {
    return ctx.upstream.current.post<RestWebhookDelivery>("/webhook-deliveries", {
      webhookEndpoint: { id: requiredId(webhookEndpointId, "webhookEndpointId") },
    });
  }
}
