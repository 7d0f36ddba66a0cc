import { readFile } from "node:fs/promises";
import { ApolloGateway } from "@apollo/gateway";
import { buildASTSchema, isInputObjectType, isScalarType, parse, type GraphQLSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { COMMITTED_PREFIX } from "../../gateway/compose.js";
import { isRange, scalarFormat } from "../../platform/input-checks.js";
import { subgraphModules } from "../../scripts/subgraphs.js";

/**
 * platform/input-checks.ts applies value formats by a scalar's `@specifiedBy` URL and refuses a
 * reversed range by its shape (an input of exactly `from` and `to` of one such scalar). Over every
 * schema the checks are given (the committed SDL, the API schema the gateway builds from the
 * supergraph, the schema a subgraph serves, with and without GRAPH_PREFIX) these rules hold
 * exactly for `Date`, `LocalDateTime`, `DateRange` and `LocalDateTimeRange`: a new scalar or input
 * that takes a rule by accident, or a composition that drops a `@specifiedBy`, fails here.
 */

const FULL_DATE = "https://www.rfc-editor.org/rfc/rfc3339#section-5.6";
const DATE_TIME_LOCAL = "https://spec.openapis.org/registry/format/date-time-local";

function ruled(schema: GraphQLSchema) {
  const types = Object.values(schema.getTypeMap());
  return {
    formats: Object.fromEntries(types.filter(isScalarType).flatMap((t) => (scalarFormat(t) ? [[t.name, t.specifiedByURL]] : []))),
    ranges: types.filter(isInputObjectType).filter(isRange).map((t) => t.name).sort(),
  };
}

function expected(prefix: string, has: (name: string) => boolean) {
  const formats = { [`${prefix}Date`]: FULL_DATE, [`${prefix}LocalDateTime`]: DATE_TIME_LOCAL };
  const ranges = [`${prefix}DateRange`, `${prefix}LocalDateTimeRange`];
  return { formats: Object.fromEntries(Object.entries(formats).filter(([name]) => has(name))), ranges: ranges.filter(has) };
}

const committed = async (path: string) => buildASTSchema(parse(await readFile(new URL(`../../schema/${path}`, import.meta.url), "utf8")), { assumeValidSDL: true });

describe.each([
  ["", ""],
  ["prefixed/", COMMITTED_PREFIX],
])("schema/%s", (dir, prefix) => {
  it("the supergraph and the API schema the gateway serves carry exactly the two formats and the two ranges", async () => {
    const sdl = await readFile(new URL(`../../schema/${dir}supergraph.graphql`, import.meta.url), "utf8");
    const gateway = new ApolloGateway({ supergraphSdl: sdl });
    const apiSchema = (await gateway.load()).schema;
    await gateway.stop();
    const all = expected(prefix, () => true);
    expect(ruled(await committed(`${dir}supergraph.graphql`))).toEqual(all);
    expect(ruled(apiSchema)).toEqual(all);
  });

  it("each subgraph's committed SDL and served schema carry them where it declares those types, and no other", async () => {
    for (const module of await subgraphModules()) {
      const sdl = await committed(`${dir}${module.name}.graphql`);
      const served = await module.buildSchema({ prefix: prefix || null });
      const want = expected(prefix, (name) => served.getType(name) !== undefined);
      expect(ruled(sdl), module.name).toEqual(want);
      expect(ruled(served), module.name).toEqual(want);
    }
  });
});
