import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { entityRef, filterArgs, listConnection, referenceTo, requiredId, RestFilter, type FilterArgs, type SubgraphContext } from "../../shared/graphql/index.js";
import { BusinessEstablishment } from "../business-establishment/business-establishment.js";
import { Employee } from "../employee/employee.js";
import { businessEstablishmentLoader, eventLoader } from "../loaders.js";
import type { RestBusinessEstablishment, RestEvent } from "../rest.js";
import { Event, EventConnection, EventFilter } from "./event.js";

const EventListArgs = filterArgs(EventFilter);

@Resolver(() => Event)
export class EventResolver {
  @Query(() => Event, {
    nullable: true,
    description: "One event; null when it does not exist or is about an employee the caller may not see (scope events).",
  })
  event(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEvent | null> {
    return eventLoader(ctx).load(requiredId(id));
  }

  @Query(() => EventConnection, {
    nullable: true,
    description: "Events, ordered by id, without those about employees the caller may not see (scope events).",
  })
  events(@Args(() => EventListArgs) { filter, first, after }: FilterArgs<EventFilter>, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    const query = new RestFilter().enums("status", "deliveryStatuses", filter?.deliveryStatuses).query;
    return listConnection(ctx, info, "/events", query, { first, after }, eventLoader(ctx));
  }

  @FieldResolver(() => Employee, {
    nullable: true,
    description: "The employee the event is about; null when the caller may not read them, or for an event about something else.",
  })
  employee(@Root() event: RestEvent): { id: string } | null {
    return event.data?.type === "employee" ? entityRef(event.data) : null;
  }

  @FieldResolver(() => BusinessEstablishment, {
    nullable: true,
    description: "The establishment of the employee's applicable job position; null when there is none.",
  })
  businessEstablishment(
    @Root() event: RestEvent,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RestBusinessEstablishment | null> | { id: string } | null {
    return referenceTo(event.businessEstablishment, info, (id) => businessEstablishmentLoader(ctx).load(id));
  }
}
