import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root, createUnionType } from "type-graphql";
import {
  InvalidInputError,
  WRITE_REFUSALS,
  mutationResultType,
  type WriteRefusal,
  PageArgs,
  audited,
  childConnection,
  filterArgs,
  invalidInput,
  listConnection,
  referenceTo,
  requiredId,
  RestFilter,
  type FilterArgs,
  type SubgraphContext,
} from "../../shared/graphql/index.js";
import { UpstreamError } from "../../shared/upstream/index.js";
import { attemptsOfWebhookDelivery } from "../edges.js";
import { Event } from "../event/event.js";
import { eventLoader, webhookDeliveryLoader, webhookEndpointLoader } from "../loaders.js";
import { postWebhookTestDelivery } from "../writes.js";
import type { RestEvent, RestWebhookDelivery, RestWebhookEndpoint } from "../rest.js";
import { WebhookEndpoint } from "../webhook-endpoint/webhook-endpoint.js";
import { WebhookDelivery, WebhookDeliveryAttemptConnection, WebhookDeliveryConnection, WebhookDeliveryFilter } from "./webhook-delivery.js";

const WebhookDeliveryListArgs = filterArgs(WebhookDeliveryFilter);

export const TriggerWebhookTestDeliveryResult = createUnionType({
  name: "TriggerWebhookTestDeliveryResult",
  description: "The delivery made, or why none was made.",
  types: () => [WebhookDelivery, ...WRITE_REFUSALS] as const,
  resolveType: mutationResultType("WebhookDelivery"),
});

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDelivery, { nullable: true, description: "One webhook delivery; null when it does not exist (scope webhook-deliveries)." })
  webhookDelivery(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestWebhookDelivery | null> {
    return webhookDeliveryLoader(ctx).load(requiredId(id));
  }

  @Query(() => WebhookDeliveryConnection, { nullable: true, description: "Webhook deliveries, ordered by id (scope webhook-deliveries)." })
  webhookDeliveries(
    @Args(() => WebhookDeliveryListArgs) { filter, first, after }: FilterArgs<WebhookDeliveryFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter().strings("webhookEndpoint.id", "webhookEndpointIds", filter?.webhookEndpointIds).query;
    return listConnection(ctx, info, "/webhook-deliveries", query, { first, after }, webhookDeliveryLoader(ctx));
  }

  @FieldResolver(() => String, { description: "The kind of event sent (e.g. employee.created), known without reading the event." })
  eventTopic(@Root() delivery: RestWebhookDelivery): string {
    // the delivery's event reference carries the event's kind as its `type`
    return delivery.event.type;
  }

  @FieldResolver(() => Event, {
    nullable: true,
    description: "The event sent; null when the caller may not read it (scope events, or an event about an employee the caller may not see).",
  })
  event(@Root() delivery: RestWebhookDelivery, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<RestEvent | null> | { id: string } | null {
    return referenceTo(delivery.event, info, (id) => eventLoader(ctx).load(id));
  }

  @FieldResolver(() => WebhookEndpoint, { nullable: true, description: "The endpoint the event is sent to; null when the caller may not read it (scope webhook-endpoints)." })
  webhookEndpoint(
    @Root() delivery: RestWebhookDelivery,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RestWebhookEndpoint | null> | { id: string } | null {
    return referenceTo(delivery.webhookEndpoint, info, (id) => webhookEndpointLoader(ctx).load(id));
  }

  @FieldResolver(() => WebhookDeliveryAttemptConnection, {
    nullable: true,
    description: "The attempts made so far, oldest first (the `webhookDelivery.id` filter of webhook delivery attempts).",
  })
  attempts(@Root() delivery: RestWebhookDelivery, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return childConnection(ctx, info, attemptsOfWebhookDelivery, delivery.id, page);
  }

  @Mutation(() => TriggerWebhookTestDeliveryResult, {
    nullable: true,
    description:
      "Sends a sample `employee.created` event to a registered webhook endpoint (beta; scope webhook-deliveries.readwrite). " +
      "The attempt is made at once: the delivery is answered with its outcome. Every refusal is returned as data: an endpoint " +
      "the directory refuses (inactive: InvalidInputError), an unknown endpoint (NotFoundError), a caller without the scope " +
      "(ForbiddenError), a conflict the directory reports (ConflictError).",
  })
  triggerWebhookTestDelivery(
    @Arg("webhookEndpointId", () => ID) webhookEndpointId: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestWebhookDelivery | InvalidInputError | WriteRefusal> {
    // a write of the current API with the caller's own token in forward mode: the directory checks
    // the caller's webhook-deliveries.readwrite scope itself, so no facade setting gates it
    return audited(ctx, { operation: "triggerWebhookTestDelivery", type: "WebhookEndpoint", id: webhookEndpointId, fields: ["webhookEndpointId"], idArgument: "webhookEndpointId" }, async () => {
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
