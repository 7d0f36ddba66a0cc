import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateTimeScalar } from "../../shared/graphql/index.js";

/** REST `status`; the values are the REST values, so payloads resolve without mapping. */
export enum WebhookDeliveryStatus {
  DELIVERED = "delivered",
  UNDELIVERED = "undelivered",
  FAILED = "failed",
}
registerEnumType(WebhookDeliveryStatus, {
  name: "WebhookDeliveryStatus",
  description: "DELIVERED: the endpoint answered 2xx; UNDELIVERED: an attempt failed and another is planned; FAILED: no attempt is left.",
});

/**
 * An entity: the directory reads deliveries back (`GET /webhook-deliveries[/{id}]`), so a
 * reference to one resolves like any other.
 */
@ObjectType("WebhookDelivery", { description: "The job of sending one event to one webhook endpoint (scope webhook-deliveries)." })
@Directive('@key(fields: "id")')
export class WebhookDelivery {
  @Field(() => ID, { description: "Identifier of the delivery." })
  id!: string;

  @Field(() => WebhookDeliveryStatus)
  status!: WebhookDeliveryStatus;

  @Field(() => Int, { description: "Delivery attempts made so far." })
  attemptsCount!: number;

  @Field(() => DateTimeScalar, { nullable: true, description: "The next planned attempt; null when none is planned." })
  nextAttemptAt!: string | null;
}

export const WebhookDeliveryConnection = connectionType("WebhookDelivery", WebhookDelivery);

/**
 * An entity since it has reads of its own (`GET /webhook-delivery-attempts[/{id}]`): a reference
 * resolves through the adaptive loader, as the list has no `id` filter (docs/performance.md#batching-rules).
 */
@ObjectType("WebhookDeliveryAttempt", {
  description: "One POST of a delivery's event to its endpoint; readable with the scope webhook-deliveries.",
})
@Directive('@key(fields: "id")')
export class WebhookDeliveryAttempt {
  @Field(() => ID, { description: "Identifier of the attempt." })
  id!: string;

  @Field(() => Boolean, { description: "Whether the endpoint answered with a 2xx status." })
  isSuccessful!: boolean;

  @Field(() => Int, { nullable: true, description: "The HTTP status the endpoint answered; null when no answer came (refused connection, timeout)." })
  responseStatusCode!: number | null;

  @Field(() => String, { description: "The start of the endpoint's answer to an unsuccessful attempt; empty otherwise." })
  errorResponseBody!: string;

  @Field(() => String, { description: "Signature of the body sent (hex), for the receiver to check it came from the directory." })
  signature!: string;

  @Field(() => DateTimeScalar, { description: "When the attempt was made." })
  createdAt!: string;
}

export const WebhookDeliveryAttemptConnection = connectionType("WebhookDeliveryAttempt", WebhookDeliveryAttempt);

@InputType("WebhookDeliveryFilter", { description: "Filters of the webhook-delivery list; all given filters apply together." })
export class WebhookDeliveryFilter {
  @Field(() => [ID], { nullable: true, description: "Webhook endpoint ids (at most 100): `webhookEndpoint.id`." })
  webhookEndpointIds?: string[] | null;
}

@InputType("WebhookDeliveryAttemptFilter", { description: "Filters of the webhook-delivery-attempt list; all given filters apply together." })
export class WebhookDeliveryAttemptFilter {
  @Field(() => [ID], { nullable: true, description: "Webhook delivery ids (at most 100): `webhookDelivery.id`." })
  webhookDeliveryIds?: string[] | null;
}
