import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateTimeScalar, URLScalar } from "../../shared/graphql/index.js";

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

@ObjectType("WebhookEvent", { description: "The event a delivery sends (only its reference is known)." })
export class WebhookEvent {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "The event kind, e.g. employee.created." })
  type!: string;

  @Field(() => URLScalar, { description: "The event's address at the directory (`/service-api/events/{id}`)." })
  url!: string;
}

@ObjectType("WebhookEndpoint", { description: "A registered webhook endpoint (only its id is known)." })
export class WebhookEndpoint {
  @Field(() => ID)
  id!: string;
}

/**
 * Not an entity: the interface can create a delivery but has no read of one, so no subgraph could
 * resolve a reference to it. It is returned by the mutation only.
 */
@ObjectType("WebhookDelivery", { description: "The job of sending one event to one webhook endpoint." })
export class WebhookDelivery {
  @Field(() => ID)
  id!: string;

  @Field(() => WebhookDeliveryStatus)
  status!: WebhookDeliveryStatus;

  @Field(() => Int, { description: "Delivery attempts made so far." })
  attemptsCount!: number;

  @Field(() => DateTimeScalar, { nullable: true, description: "The next planned attempt; null when none is planned." })
  nextAttemptAt!: string | null;

  @Field(() => WebhookEvent)
  event!: WebhookEvent;

  @Field(() => WebhookEndpoint)
  webhookEndpoint!: WebhookEndpoint;
}
