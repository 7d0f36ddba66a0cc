import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { filterArgs, listConnection, referenceTo, requiredId, RestFilter, type FilterArgs, type SubgraphContext } from "../../shared/graphql/index.js";
import { webhookDeliveryAttemptLoader, webhookDeliveryLoader } from "../loaders.js";
import type { RestWebhookDelivery, RestWebhookDeliveryAttempt } from "../rest.js";
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookDeliveryAttemptConnection, WebhookDeliveryAttemptFilter } from "../webhook-delivery/webhook-delivery.js";

const WebhookDeliveryAttemptListArgs = filterArgs(WebhookDeliveryAttemptFilter);

/**
 * The reads of webhook delivery attempts (`GET /webhook-delivery-attempts[/{id}]`, scope
 * webhook-deliveries): the root single read and list, and the attempt's delivery.
 */
@Resolver(() => WebhookDeliveryAttempt)
export class WebhookDeliveryAttemptResolver {
  @Query(() => WebhookDeliveryAttempt, {
    nullable: true,
    description: "One webhook delivery attempt; null when it does not exist (scope webhook-deliveries: without it, null with a FORBIDDEN error).",
  })
  webhookDeliveryAttempt(@Arg("id", () => ID, { description: "Identifier of the attempt." }) id: string, @Ctx() ctx: SubgraphContext): Promise<RestWebhookDeliveryAttempt | null> {
    return webhookDeliveryAttemptLoader(ctx).load(requiredId(id));
  }

  @Query(() => WebhookDeliveryAttemptConnection, {
    nullable: true,
    description:
      "Webhook delivery attempts, in the directory's order (oldest first); one call per page " +
      "(scope webhook-deliveries: without it, null with a FORBIDDEN error).",
  })
  webhookDeliveryAttempts(
    @Args(() => WebhookDeliveryAttemptListArgs) { filter, first, after }: FilterArgs<WebhookDeliveryAttemptFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter().strings("webhookDelivery.id", "webhookDeliveryIds", filter?.webhookDeliveryIds).query;
    return listConnection(ctx, info, "/webhook-delivery-attempts", query, { first, after }, webhookDeliveryAttemptLoader(ctx));
  }

  @FieldResolver(() => WebhookDelivery, {
    nullable: true,
    description:
      "The delivery the attempt belongs to; null when it cannot be read. No call when only its id is selected; otherwise shared by " +
      "every attempt of the operation, never a call per attempt.",
  })
  webhookDelivery(
    @Root() attempt: RestWebhookDeliveryAttempt,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RestWebhookDelivery | null> | { id: string } | null {
    return referenceTo(attempt.webhookDelivery, info, (id) => webhookDeliveryLoader(ctx).load(id));
  }
}
