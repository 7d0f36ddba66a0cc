import { createRequire } from "node:module";
import { buildSchema as buildGraphQLSchema, getNamedType, isCompositeType, isEnumType, isInterfaceType, isListType, isObjectType, isNonNullType, isScalarType, parse, type GraphQLOutputType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type FragmentDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { computeResponse, installResultShaping, libraryShaping } from "../../gateway/apollo/result-shaping.js";
import { checkInternals } from "../../gateway/apollo/internals.js";

// The compiled shaping must answer exactly as @apollo/gateway's computeResponse: both run on the
// same operations and the same subgraph data, most of it wrong in some way (nulls where the schema
// says non-null, missing fields, values of the wrong type, unknown and abstract __typename, lists
// that are not lists), and their data, errors and exceptions are compared.

const SDL = `
  type Query { node(id: ID!): Node, nodes: [Node]!, search: [SearchResult!], me: User!, grid: [[User!]]!, count: Int, ratio: Float, flag: Boolean, id: ID, when: DateTime, color: Color }
  interface Node { id: ID! }
  type User implements Node { id: ID!, name: String!, friends: [User!], manager: User, color: Color, constructor: String, toString: Int, when: DateTime }
  type Team implements Node { id: ID!, members: [User!]!, lead: User, size: Int! }
  union SearchResult = User | Team
  enum Color { RED GREEN }
  scalar DateTime
`;

const OPERATIONS: { source: string; variables: Record<string, unknown>[] }[] = [
  { source: "{ me { id name manager { name } friends { id color } } count ratio flag id when color }", variables: [{}] },
  { source: "{ me { toString: name constructor: id constructor } __proto__: me { id } hasOwnProperty: count }", variables: [{}] },
  { source: "{ __typename t: __typename me { __typename kind: __typename ... on Node { __typename id } } }", variables: [{}] },
  {
    source: `query($skip: Boolean!, $inc: Boolean = true) {
      nodes { __typename id ... on User @skip(if: $skip) { name friends { ...F } } ... on Team @include(if: $inc) { size members { ...F lead: manager { id } } } }
      search { ... on SearchResult { __typename ... on User { name } ... on Node { ... on Team { size } } } ... on User { id } ... on Team { id lead { ...F } } }
      me @include(if: false) { id }
      again: me @skip(if: false) { ...F ...F }
    }
    fragment F on User { id name ... on Node { id } color @include(if: $inc) }`,
    variables: [{ skip: false }, { skip: true, inc: false }, { skip: false, inc: true }],
  },
  { source: "{ node(id: 1) { ... on Team { members { name } } ... on User { friends { manager { manager { id } } } } } grid { id name } }", variables: [{}] },
  { source: "{ me { id name } me2: me { name id } me { friends { id } } me { friends { name } } }", variables: [{}] },
  { source: "{ __schema { queryType { name } } me { id } __type(name: \"User\") { name } }", variables: [{}] },
];

/** mulberry32: the same inputs on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Subgraph-like data for an operation: right most of the time, wrong in every way now and then. */
function dataFor(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>, rand: () => number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const wrong = () => pick([null, undefined, "x", 7, 1.5, true, {}, [], Number.NaN]);
  const leaf = (type: GraphQLOutputType): unknown => {
    const named = getNamedType(type);
    if (isEnumType(named)) return pick(["RED", "GREEN", "BLUE"]);
    return ({ ID: () => pick(["u1", 12, 1.5]), Int: () => pick([3, -4, 2.5]), Float: () => pick([1.25, 3]), String: () => pick(["a", "b"]), Boolean: () => rand() < 0.5 }[named.name] ?? (() => pick(["2026-01-01", 5, { at: 1 }])))();
  };
  const fill = (selectionSet: SelectionSetNode, typeName: string, into: Record<string, unknown>, depth: number): void => {
    const type = schema.getType(typeName);
    for (const selection of selectionSet.selections) {
      if (selection.kind === "FragmentSpread") fill(fragments.get(selection.name.value)!.selectionSet, fragments.get(selection.name.value)!.typeCondition.name.value, into, depth);
      else if (selection.kind === "InlineFragment") fill(selection.selectionSet, selection.typeCondition?.name.value ?? typeName, into, depth);
      else {
        const name = selection.alias?.value ?? selection.name.value;
        if (selection.name.value.startsWith("__")) {
          if (selection.name.value === "__typename") into[name] = pick(["User", "Team", "Node", "Nope", null, 3]);
          continue;
        }
        const fields = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : {};
        if (!Object.hasOwn(fields, selection.name.value)) continue;
        const field = fields[selection.name.value]!;
        if (rand() < 0.08) {
          const bad = wrong();
          if (bad !== undefined) into[name] = bad;
          continue;
        }
        into[name] = valueOf(field.type, selection.selectionSet, depth + 1, into[name]);
      }
    }
  };
  const valueOf = (type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, depth: number, existing: unknown): unknown => {
    if (isNonNullType(type)) return valueOf(type.ofType, selectionSet, depth, existing);
    if (rand() < 0.06) return null;
    if (isListType(type)) {
      const length = Array.isArray(existing) ? existing.length : Math.floor(rand() * 3);
      return Array.from({ length }, (_, i) => valueOf(type.ofType, selectionSet, depth, Array.isArray(existing) ? existing[i] : undefined));
    }
    if (isCompositeType(type) && selectionSet) {
      const object: Record<string, unknown> = existing && typeof existing === "object" && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
      const runtime = isScalarType(type) ? null : type.name === "Node" || type.name === "SearchResult" ? pick(["User", "Team"]) : type.name;
      if (runtime && rand() < 0.9 && object.__typename === undefined) object.__typename = rand() < 0.03 ? pick(["Nope", "Node", "Color"]) : runtime;
      if (depth < 5) fill(selectionSet, String(object.__typename ?? type.name), object, depth);
      return object;
    }
    return leaf(type);
  };
  const root: Record<string, unknown> = Object.create(null);
  fill(operation.selectionSet, "Query", root, 0);
  return root;
}

type Outcome = { data?: string; errors?: unknown[]; threw?: string };
function outcome(run: () => { data: unknown; errors: { message: string; path?: unknown }[] }): Outcome {
  try {
    const { data, errors } = run();
    return { data: JSON.stringify(data), errors: errors.map((e) => [e.message, e.path, (e as { extensions?: unknown }).extensions]) };
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

describe("compiled result shaping", () => {
  it("is installed against this @apollo/gateway (another version needs this test and its check again)", () => {
    expect(checkInternals()).toEqual({ ok: true });
    installResultShaping();
    const require = createRequire(createRequire(import.meta.url).resolve("@apollo/gateway"));
    expect((require("./resultShaping.js") as { computeResponse: unknown }).computeResponse).toBe(computeResponse);
  });

  it("answers as @apollo/gateway's computeResponse on every input, right or wrong", () => {
    installResultShaping();
    const internals = createRequire(createRequire(import.meta.url).resolve("@apollo/gateway"))("@apollo/federation-internals") as {
      buildSchema(sdl: string): unknown;
    };
    const schema = internals.buildSchema(SDL);
    const graphqlSchema = buildGraphQLSchema(SDL);
    const original = libraryShaping.computeResponse!;
    const build = libraryShaping.operationFromDocument!;
    const introspectionHandling = (selection: { element: { responseName(): string } }) => ({ introspected: selection.element.responseName() });
    const rand = random(20261126);
    let compared = 0;
    let withErrors = 0;
    let threw = 0;
    for (const { source, variables } of OPERATIONS) {
      const document = parse(source);
      const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === "FragmentDefinition").map((d) => [d.name.value, d]));
      const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === "OperationDefinition")!;
      const operation = build(schema as never, document, { validate: false });
      for (const vars of variables) {
        for (let i = 0; i < 400; i++) {
          const input = dataFor(graphqlSchema, definition, fragments, rand);
          const args = { operation, variables: vars, input, introspectionHandling } as never;
          const theirs = outcome(() => original(args));
          const ours = outcome(() => computeResponse(args));
          expect(ours, `${source}\n${JSON.stringify(vars)}\n${JSON.stringify(input)}`).toEqual(theirs);
          compared++;
          if (theirs.errors?.length) withErrors++;
          if (theirs.threw) threw++;
        }
      }
    }
    // the inputs reach the paths that matter: answers with and without errors, and failures
    expect(compared).toBe(400 * OPERATIONS.reduce((n, o) => n + o.variables.length, 0));
    console.log({ compared, withErrors, threw });
    expect(withErrors).toBeGreaterThan(500);
    expect(compared - withErrors - threw).toBeGreaterThan(300);
    expect(threw).toBeGreaterThan(20);
  });

  it("keeps the operation it built for a document node, per schema and fragments", () => {
    installResultShaping();
    const require = createRequire(createRequire(import.meta.url).resolve("@apollo/gateway"));
    const internals = require("@apollo/federation-internals") as { buildSchema(sdl: string): unknown; operationFromDocument(...args: unknown[]): unknown };
    const [a, b] = [internals.buildSchema(SDL), internals.buildSchema(SDL)];
    const document = parse("query Q { me { ...F } } fragment F on User { id }");
    const [operation, fragment] = document.definitions;
    const again = () => internals.operationFromDocument(a, { kind: "Document", definitions: [operation, fragment] }, { validate: false });
    // (identity compared as booleans: a failed toBe would print the whole schema)
    expect(again() === again()).toBe(true);
    expect(internals.operationFromDocument(b, document, { validate: false }) === again()).toBe(false);
    // another fragment node of the same name: built again
    const [, otherFragment] = parse("query Q { me { ...F } } fragment F on User { name }").definitions;
    expect(internals.operationFromDocument(a, { kind: "Document", definitions: [operation, otherFragment] }, { validate: false }) === again()).toBe(false);
    // what the query planner builds (validated, by name) is never kept
    const named = () => internals.operationFromDocument(a, document, { operationName: "Q" });
    expect(named() === named()).toBe(false);
  });
});
