import { Arg, Ctx, ID, Mutation, Resolver, createUnionType } from "type-graphql";
import { InvalidInputError, audited, invalidInput, requiredId, type SubgraphContext } from "../../shared/graphql/index.js";
import { UpstreamError } from "../../shared/upstream/index.js";
import { postWebhookTestDelivery } from "../writes.js";
import type { RestWebhookDelivery } from "../rest.js";
import { WebhookDelivery } from "./webhook-delivery.js";

export const TriggerWebhookTestDeliveryResult = createUnionType({
  name: "TriggerWebhookTestDeliveryResult",
  description: "The delivery made, or why none was made (an inactive endpoint).",
  types: () => [WebhookDelivery, InvalidInputError] as const,
  resolveType: (value) => (value instanceof InvalidInputError ? "InvalidInputError" : "WebhookDelivery"),
});

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Mutation(() => TriggerWebhookTestDeliveryResult, {
    nullable: true,
    description:
      "Sends a sample `employee.created` event to a registered webhook endpoint (beta; scope webhook-deliveries.readwrite). " +
      "The attempt is made at once: the delivery is answered with its outcome. An endpoint the directory refuses (inactive) " +
      "is an InvalidInputError; an unknown endpoint is a NOT_FOUND error.",
  })
  triggerWebhookTestDelivery(
    @Arg("webhookEndpointId", () => ID) webhookEndpointId: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestWebhookDelivery | InvalidInputError> {
    // a write of the current API with the caller's own token in forward mode: the directory checks
    // the caller's webhook-deliveries.readwrite scope itself, so no facade setting gates it
    return audited(ctx, { operation: "triggerWebhookTestDelivery", type: "WebhookEndpoint", id: webhookEndpointId, fields: ["webhookEndpointId"] }, async () => {
      const id = requiredId(webhookEndpointId, "webhookEndpointId");
      try {
        return await postWebhookTestDelivery(ctx, id);
      } catch (err) {
        if (!(err instanceof UpstreamError) || err.status !== 400) throw err;
        const reasons = Object.values(err.fields ?? {}).flat();
        return invalidInput(reasons[0] ?? err.detail ?? "The directory refused the webhook endpoint.", ["webhookEndpointId"]);
      }
    });
  }
}
