import { ArgsType, Field, Int, type ClassType } from "type-graphql";
import { restSort } from "./filters.js";

/** The arguments of every connection: a page of at most 100 items after a cursor. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: "0 to 100, default 25" })
  first?: number | null;

  @Field(() => String, { nullable: true, description: "The endCursor of the previous page." })
  after?: string | null;
}

/** The arguments of a list with a filter input and no sort. */
export interface FilterArgs<F> extends PageArgs {
  filter?: F | null;
}

/** The ArgsType of a list without sort: `filter: <Entity>Filter`, `first`, `after`. */
export function filterArgs<F extends object>(filter: ClassType<F>): ClassType<FilterArgs<F>> {
  @ArgsType()
  class FilteredPage extends PageArgs {
    @Field(() => filter, { nullable: true })
    filter?: F | null;
  }
  return FilteredPage;
}

/** The arguments of a list with a filter input and a sort enum (root lists and the edges that take them). */
export interface ListArgs<F, S extends string> extends PageArgs {
  filter?: F | null;
  sort?: S[] | null;
}

/**
 * The ArgsType of one list: `filter: <Entity>Filter`, `sort: [<Entity>Sort!]`, `first`, `after`.
 * The same class serves the root field and the edges that list the same resource
 * (`employees`, `Employee.directReports`, `Department.employees`).
 */
export function listArgs<F extends object, S extends string>(filter: ClassType<F>, sort: Record<string, S>): ClassType<ListArgs<F, S>> {
  @ArgsType()
  class FilteredSortedPage extends PageArgs {
    @Field(() => filter, { nullable: true })
    filter?: F | null;

    @Field(() => [sort], { nullable: true })
    sort?: S[] | null;
  }
  return FilteredSortedPage;
}

/** The REST query of a list's arguments: its filters (through `toQuery`, which validates them) and `sort`. */
export function listQuery<F, S extends string>(
  args: ListArgs<F, S>,
  toQuery: (filter: F | null | undefined) => Record<string, string>,
): Record<string, string> {
  return { ...toQuery(args.filter), ...restSort(args.sort) };
}
