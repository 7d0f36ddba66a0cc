import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Directive, Field, ID, Info, Int, ObjectType, Query, Resolver } from "type-graphql";
import {
  DateScalar,
  Translation,
  badUserInput,
  buildFederatedSchema,
  connectionType,
  restConnection,
  selects,
  translate,
  translations,
  type SubgraphContext,
  type SubgraphModule,
  type T9n,
} from "../../subgraphs/shared/graphql/index.js";
import { listByIdsLoader } from "../../subgraphs/shared/upstream/index.js";

/**
 * A small subgraph over the directory that exercises every piece of the shared GraphQL layer
 * (server, errors, scalars, translations, connections, federation) without depending on the
 * real subgraphs. `probe-main.ts` runs it as its own process.
 */

interface RestEmployee {
  id: string;
  givenName: string;
}

@ObjectType("ProbeEmployee")
@Directive('@key(fields: "id")')
export class ProbeEmployee {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  givenName!: string;
}

const ProbeEmployeeConnection = connectionType("ProbeEmployee", ProbeEmployee);

export const PROBE_T9N: T9n = { title: { "fr-FR": "Bonjour", "de-CH": "Grüezi", en: "Hello" } };

/** A message an unexpected error carries that must never reach a caller. */
export const INTERNAL_SECRET = "postgres://admin:hunter2@db";

const employeeLoader = (ctx: SubgraphContext) => ctx.loaders.get("employee", () => listByIdsLoader<RestEmployee>(ctx.upstream, "/employees"));

@Resolver(() => ProbeEmployee)
class ProbeResolver {
  @Query(() => ProbeEmployee, { nullable: true })
  employee(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEmployee | null> {
    return ctx.upstream.current.read<RestEmployee>(`/employees/${encodeURIComponent(id)}`);
  }

  @Query(() => [ProbeEmployee], { nullable: "items" })
  employeesById(@Arg("ids", () => [ID]) ids: string[], @Ctx() ctx: SubgraphContext): Promise<Array<RestEmployee | null>> {
    return Promise.all(ids.map((id) => employeeLoader(ctx).load(id)));
  }

  @Query(() => ProbeEmployeeConnection)
  employees(
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return restConnection<RestEmployee>(ctx.upstream, "/employees", {}, { first, after }, { totalCount: selects(info, "totalCount") });
  }

  @Query(() => DateScalar, { description: "Answers the date it is given." })
  date(@Arg("value", () => DateScalar) value: string): string {
    return value;
  }

  @Query(() => DateScalar, { nullable: true, description: "A date the resolver gets wrong." })
  impossibleDate(): string {
    return "2026-02-30";
  }

  @Query(() => String)
  title(@Arg("lang", () => String, { nullable: true }) lang: string | null): string {
    return translate("Hi", PROBE_T9N, "title", lang);
  }

  @Query(() => [Translation])
  titleTranslations(): Translation[] {
    return translations(PROBE_T9N, "title");
  }

  @Query(() => String, { nullable: true })
  fail(@Arg("kind", () => String) kind: string): string {
    if (kind === "input") throw badUserInput("value must be positive", "value");
    throw new Error(`lost the connection to ${INTERNAL_SECRET}`);
  }

  @Query(() => Int, { description: "Upstream calls this request has made so far." })
  async callsAfterOneRead(@Ctx() ctx: SubgraphContext): Promise<number> {
    await ctx.upstream.current.page("/employees", { limit: 1 });
    return ctx.upstream.calls.total;
  }
}

export const probeSubgraph: SubgraphModule = {
  name: "probe",
  portVariable: "PROBE_PORT",
  defaultPort: 4099,
  buildSchema: () =>
    buildFederatedSchema({
      resolvers: [ProbeResolver],
      referenceResolvers: {
        ProbeEmployee: { __resolveReference: (ref: { id: string }, ctx: SubgraphContext) => employeeLoader(ctx).load(ref.id) },
      },
    }),
};

