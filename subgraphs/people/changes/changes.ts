import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, FieldResolver, ID, Info, ObjectType, Resolver, Root, Subscription } from "type-graphql";
import { badUserInput, DateTimeScalar, JSONScalar, type SubgraphContext } from "../../shared/graphql/index.js";
import type { DirectoryChange } from "../../shared/events/feed.js";
import { changesOf } from "../../shared/events/stream.js";
import { Employee } from "../employee/employee.js";
import { Employment } from "../employment/employment.js";
import { JobPosition } from "../job-position/job-position.js";
import { employeeLoaderFor, employmentLoader, jobPositionLoader } from "../loaders.js";

/**
 * The subscriptions of issue 37 (docs/graph.md#subscriptions): one per changed type, each event
 * the directory's facts (topic, time, previous values) beside the changed record as the same graph
 * node the queries return, read when the event is delivered with the subscriber's own credentials.
 * A deleted record, or one the subscriber cannot read, has a null node (the event's `id` says which).
 */
/** the fields every change type has (type-graphql inherits a decorated base class's fields; the base itself is never reached, so not in the schema) */
@ObjectType("ChangeFields")
abstract class Change {
  @Field(() => ID, { description: "The directory event's id: unique, so a client that hears an event twice can drop the repeat." })
  eventId!: string;
  @Field(() => String, { description: "The directory's topic: `<type>.created`, `<type>.updated` or `<type>.deleted`." })
  topic!: string;
  @Field(() => DateTimeScalar, { description: "When the change happened at the directory." })
  occurredAt!: Date;
  @Field(() => ID, { description: "The REST id of the changed record, present even when the record is deleted or not readable." })
  id!: string;
  @Field(() => JSONScalar, { nullable: true, description: "On an update: the changed attributes as they were before it (REST names); null otherwise." })
  previousAttributes!: Record<string, unknown> | null;
  /** the subscriber's context for this event */
  ctx!: SubgraphContext;
}

@ObjectType({ description: "A change to an employee." })
export class EmployeeChange extends Change {}
@ObjectType({ description: "A change to an employment." })
export class EmploymentChange extends Change {}
@ObjectType({ description: "A change to a job position." })
export class JobPositionChange extends Change {}

/**
 * type-graphql asks for a PubSub as soon as a schema has a subscription, even when every
 * subscription brings its own `subscribe` (as these do, from the change feed): this one is never used.
 */
export const unusedPubSub = {
  publish(): void {
    throw new Error("the subscriptions read the change feed (subgraphs/shared/events), not a PubSub");
  },
  subscribe(): never {
    throw new Error("the subscriptions read the change feed (subgraphs/shared/events), not a PubSub");
  },
};

/** the REST types of the subscriptions, and the topics each accepts */
const TYPES = { employee: "employee", employment: "employment", jobPosition: "job-position" } as const;
const KINDS = ["created", "updated", "deleted"];

interface Filters {
  ids?: string[] | null;
  topics?: string[] | null;
  establishmentIds?: string[] | null;
}

/** What one subscriber hears: its type, and each filter given (any of its values). Bad filters are refused before subscribing. */
function acceptor(restType: string, filters: Filters): (change: DirectoryChange) => boolean {
  const topics = filters.topics ?? null;
  for (const topic of topics ?? []) {
    if (!KINDS.some((kind) => topic === `${restType}.${kind}`)) {
      throw badUserInput(`topics: ${JSON.stringify(topic).slice(0, 80)} is not one of ${KINDS.map((k) => `${restType}.${k}`).join(", ")}`);
    }
  }
  for (const list of [filters.ids, filters.establishmentIds]) if (list && list.length > 100) throw badUserInput("a subscription filter lists 100 values at most");
  const ids = filters.ids ? new Set(filters.ids) : null;
  const establishments = filters.establishmentIds ? new Set(filters.establishmentIds) : null;
  return (change) =>
    change.resource.type === restType &&
    (ids === null || ids.has(change.resource.id)) &&
    (topics === null || topics.includes(change.topic)) &&
    (establishments === null || change.establishmentIds.some((id) => establishments.has(id)));
}

function subscribe(restType: string) {
  return ({ args, context }: { args: Filters; context: SubgraphContext }) => {
    const changes = context.changes;
    if (!changes) throw new Error("subscriptions are served on the subgraph's stream endpoint only");
    const accept = acceptor(restType, args);
    const source = changesOf(changes.feed, accept, changes.queue);
    // each event in a context of its own: the record is read as it is now, with the subscriber's credentials
    return {
      next: async () => {
        const next = await source.next();
        return next.done ? next : { done: false, value: eventOf(next.value, changes.eventContext()) };
      },
      return: () => source.return!(),
      // graphql-sse only ends the streams that look like generators (next, return and throw)
      throw: () => source.return!(),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  };
}

function eventOf(change: DirectoryChange, ctx: SubgraphContext): Change {
  return { eventId: change.id, topic: change.topic, occurredAt: new Date(change.occurredAt), id: change.resource.id, previousAttributes: change.previousAttributes, ctx };
}

const deleted = (change: Change) => change.topic.endsWith(".deleted");

@Resolver()
export class ChangeSubscriptions {
  @Subscription(() => EmployeeChange, { subscribe: subscribe(TYPES.employee), description: "Changes to employees, as the directory tells them; each filter given narrows (any of its values)." })
  employeeChanged(
    @Root() event: Change,
    @Arg("ids", () => [ID], { nullable: true, description: "Only the changes of these records (REST ids; 100 at most)." }) _ids?: string[],
    @Arg("topics", () => [String], { nullable: true, description: "`employee.created`, `employee.updated`, `employee.deleted`" }) _topics?: string[],
    @Arg("establishmentIds", () => [ID], { nullable: true, description: "Only the changes that concern one of these business establishments (100 at most)." }) _establishmentIds?: string[],
  ): Change {
    return event;
  }

  @Subscription(() => EmploymentChange, { subscribe: subscribe(TYPES.employment), description: "Changes to employments; each filter given narrows." })
  employmentChanged(
    @Root() event: Change,
    @Arg("ids", () => [ID], { nullable: true, description: "Only the changes of these records (REST ids; 100 at most)." }) _ids?: string[],
    @Arg("topics", () => [String], { nullable: true, description: "`employment.created`, `employment.updated`, `employment.deleted`" }) _topics?: string[],
    @Arg("establishmentIds", () => [ID], { nullable: true, description: "Only the changes that concern one of these business establishments (100 at most)." }) _establishmentIds?: string[],
  ): Change {
    return event;
  }

  @Subscription(() => JobPositionChange, { subscribe: subscribe(TYPES.jobPosition), description: "Changes to job positions; each filter given narrows." })
  jobPositionChanged(
    @Root() event: Change,
    @Arg("ids", () => [ID], { nullable: true, description: "Only the changes of these records (REST ids; 100 at most)." }) _ids?: string[],
    @Arg("topics", () => [String], { nullable: true, description: "`job-position.created`, `job-position.updated`, `job-position.deleted`" }) _topics?: string[],
    @Arg("establishmentIds", () => [ID], { nullable: true, description: "Only the changes that concern one of these business establishments (100 at most)." }) _establishmentIds?: string[],
  ): Change {
    return event;
  }
}

@Resolver(() => EmployeeChange)
export class EmployeeChangeResolver {
  @FieldResolver(() => Employee, { nullable: true, description: "The employee as it is now; null when deleted or not readable by the subscriber." })
  employee(@Root() change: Change, @Info() info: GraphQLResolveInfo) {
    return deleted(change) ? null : employeeLoaderFor(change.ctx, info).load(change.id);
  }
}

@Resolver(() => EmploymentChange)
export class EmploymentChangeResolver {
  @FieldResolver(() => Employment, { nullable: true, description: "The employment as it is now; null when deleted or not readable by the subscriber." })
  employment(@Root() change: Change) {
    return deleted(change) ? null : employmentLoader(change.ctx).load(change.id);
  }
}

@Resolver(() => JobPositionChange)
export class JobPositionChangeResolver {
  @FieldResolver(() => JobPosition, { nullable: true, description: "The job position as it is now; null when deleted or not readable by the subscriber." })
  jobPosition(@Root() change: Change) {
    return deleted(change) ? null : jobPositionLoader(change.ctx).load(change.id);
  }
}
