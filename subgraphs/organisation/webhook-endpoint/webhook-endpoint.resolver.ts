import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { childConnection, filterArgs, listConnection, PageArgs, requiredId, RestFilter, type FilterArgs, type SubgraphContext } from "../../shared/graphql/index.js";
import { deliveriesOfWebhookEndpoint } from "../edges.js";
import { webhookEndpointLoader } from "../loaders.js";
import type { RestWebhookEndpoint } from "../rest.js";
import { WebhookDeliveryConnection } from "../webhook-delivery/webhook-delivery.js";
import { WebhookEndpoint, WebhookEndpointConnection, WebhookEndpointFilter } from "./webhook-endpoint.js";

const WebhookEndpointListArgs = filterArgs(WebhookEndpointFilter);

@Resolver(() => WebhookEndpoint)
export class WebhookEndpointResolver {
  @Query(() => WebhookEndpoint, { nullable: true, description: "One webhook endpoint; null when it does not exist (scope webhook-endpoints)." })
  webhookEndpoint(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestWebhookEndpoint | null> {
    return webhookEndpointLoader(ctx).load(requiredId(id));
  }

  @Query(() => WebhookEndpointConnection, { nullable: true, description: "Webhook endpoints, ordered by id (scope webhook-endpoints)." })
  webhookEndpoints(
    @Args(() => WebhookEndpointListArgs) { filter, first, after }: FilterArgs<WebhookEndpointFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter().enums("status", "statuses", filter?.statuses).strings("application.id", "applicationIds", filter?.applicationIds).query;
    return listConnection(ctx, info, "/webhook-endpoints", query, { first, after }, webhookEndpointLoader(ctx));
  }

  @FieldResolver(() => WebhookDeliveryConnection, {
    nullable: true,
    description: "The deliveries to this endpoint, ordered by id (the `webhookEndpoint.id` filter of webhook deliveries; scope webhook-deliveries).",
  })
  deliveries(@Root() endpoint: RestWebhookEndpoint, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return childConnection(ctx, info, deliveriesOfWebhookEndpoint, endpoint.id, page);
  }
}
