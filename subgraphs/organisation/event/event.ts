import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateTimeScalar, JSONScalar } from "../../shared/graphql/index.js";

/** REST `status` of an event: how its deliveries went. */
export enum EventDeliveryStatus {
  SCHEDULED = "scheduled",
  DELIVERED = "delivered",
  FAILED = "failed",
}
registerEnumType(EventDeliveryStatus, {
  name: "EventDeliveryStatus",
  description: "How the deliveries of an event went.",
  valuesConfig: {
    SCHEDULED: { description: "Not delivered yet; a delivery will be attempted again." },
    DELIVERED: { description: "A delivery of the event succeeded." },
    FAILED: { description: "Every delivery of the event failed for good." },
  },
});

@ObjectType("Event", {
  description:
    "Something that happened at the directory, as webhooks deliver it; readable with the scope events. An event about an employee the caller may not see is not shown.",
})
@Directive('@key(fields: "id")')
export class Event {
  @Field(() => ID, { description: "Identifier of the event." })
  id!: string;

  @Field(() => String, { description: "What happened, as `<resource>.<change>` (e.g. employee.created)." })
  topic!: string;

  @Field(() => DateTimeScalar, { description: "When it happened." })
  occurredAt!: string;

  @Field(() => String, { description: "The API version the event is written in (YYYY-MM-DD)." })
  apiVersion!: string;

  @Field(() => JSONScalar, { nullable: true, description: "The attributes the change replaced, by name; null when there are none (a creation)." })
  previousAttributes!: Record<string, unknown> | null;
}

export const EventConnection = connectionType("Event", Event);

@InputType("EventFilter", { description: "Filters of the event list; all given filters apply together." })
export class EventFilter {
  @Field(() => [EventDeliveryStatus], { nullable: true, description: "Delivery statuses (at most 100): `status`. Events never delivered have none and never match." })
  deliveryStatuses?: EventDeliveryStatus[] | null;
}
