import type { SubgraphContext } from "../shared/graphql/index.js";
import type { RestWebhookDelivery } from "./rest.js";

/**
 * The organisation subgraph's writes: every POST it sends, beside the reads of loaders.ts and
 * edges.ts. The mutation (`triggerWebhookTestDelivery`) checks its input and turns a refusal into
 * data; the call itself is here.
 */

/** A sample `employee.created` event sent to a registered endpoint; the delivery with its outcome. */
export function postWebhookTestDelivery(ctx: SubgraphContext, webhookEndpointId: string): Promise<RestWebhookDelivery> {
  return ctx.upstream.current.post<RestWebhookDelivery>("/webhook-deliveries", { webhookEndpoint: { id: webhookEndpointId } });
}
