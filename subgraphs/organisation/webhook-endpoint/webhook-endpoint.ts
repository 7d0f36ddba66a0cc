import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateTimeScalar, URLScalar } from "../../shared/graphql/index.js";

/** REST `status`; the values are the REST values, so payloads resolve without mapping. */
export enum WebhookEndpointStatus {
  ACTIVE = "active",
  SUSPENDED = "suspended",
  INACTIVE = "inactive",
}
registerEnumType(WebhookEndpointStatus, {
  name: "WebhookEndpointStatus",
  description: "Whether events are sent to a webhook endpoint.",
  valuesConfig: {
    ACTIVE: { description: "Events are sent to it; test deliveries can be triggered." },
    SUSPENDED: { description: "Paused by the directory (e.g. after repeated failures); nothing is sent." },
    INACTIVE: { description: "Switched off; nothing is sent and test deliveries are refused." },
  },
});

@ObjectType("WebhookEndpoint", { description: "A URL registered at the directory to receive its events; readable with the scope webhook-endpoints." })
@Directive('@key(fields: "id")')
export class WebhookEndpoint {
  @Field(() => ID, { description: "Identifier of the registered endpoint." })
  id!: string;

  @Field(() => String, { description: "Name given to the endpoint." })
  name!: string;

  @Field(() => String, { description: "The API version of the events sent to it (YYYY-MM-DD)." })
  apiVersion!: string;

  @Field(() => URLScalar, { description: "Where the events are POSTed." })
  webhookUrl!: string;

  @Field(() => [String], { description: "The event topics sent to it (e.g. employee.created); empty: none chosen." })
  topics!: string[];

  @Field(() => WebhookEndpointStatus, { description: "Whether events are sent to the endpoint now." })
  status!: WebhookEndpointStatus;

  @Field(() => DateTimeScalar, { nullable: true, description: "When the endpoint was registered; null when unknown." })
  createdAt!: string | null;

  @Field(() => DateTimeScalar, { nullable: true, description: "Last change of the endpoint; null when unknown." })
  lastUpdatedAt!: string | null;
}

export const WebhookEndpointConnection = connectionType("WebhookEndpoint", WebhookEndpoint);

@InputType("WebhookEndpointFilter", { description: "Filters of the webhook-endpoint list; all given filters apply together." })
export class WebhookEndpointFilter {
  @Field(() => [WebhookEndpointStatus], { nullable: true, description: "Statuses (at most 100): `status`." })
  statuses?: WebhookEndpointStatus[] | null;

  @Field(() => [ID], { nullable: true, description: "Ids of the applications that registered the endpoints (at most 100): `application.id`." })
  applicationIds?: string[] | null;
}
