import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import {
  Kind,
  TypeInfo,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isInputObjectType,
  isListType,
  isScalarType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { rootFieldPrefix } from "./config.js";
import { MAX_FIRST, MAX_FILTER_VALUES, badUserInput, isIsoDate } from "./user-input.js";

/**
 * The arguments of a whole operation, checked before it runs: a bad value anywhere — on a root
 * field or on a list nested three levels down — fails the operation with BAD_USER_INPUT before
 * its first upstream call, instead of after the calls of the fields above it.
 *
 * The rules follow the schema's own types, declared once:
 * - `ID` values (arguments and input fields, in lists too) follow the subgraph's id rule
 *   (`IdRule`): the shape the directory accepts, or the legacy API's integers;
 * - a scalar that declares a format this module knows (`@specifiedBy`, `FORMATS`) carries values of
 *   that format: RFC 3339's full-date (`YYYY-MM-DD`, a real day) everywhere, RFC 3339's date-time
 *   without offset (`YYYY-MM-DDTHH:mm:ss`, a real day) outside mutations, whose refusals are data;
 * - a range, an input object whose fields are exactly `from` and `to` of one such scalar, does not
 *   end before it starts;
 * - every list carries at most 100 entries (the REST filters' limit);
 * - `first` is 0..100 and `after` passes the `after` check (a subgraph: a cursor it signed; the
 *   gateway: a value shaped as a cursor);
 * - a field may add rules of its own (`FieldChecks`: the generic rules of field-rules.ts, which a
 *   subgraph declares and the gateway reads from `schema/field-checks.json`, and a subgraph's own
 *   checks), which its resolver applies too.
 */

/** The rule of a subgraph's ids: answers what is wrong with `id`, or null. */
export type IdRule = (id: string) => string | null;

/** Ids of the current API: what the directory's paths and filters carry (letters, digits, `.`, `_`, `:`, `-`). */
const CURRENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
export const MAX_ID_LENGTH = 128;

export const currentApiId: IdRule = (id) => {
  if (id.length === 0) return "must not be empty";
  if (id.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters long, got ${id.length}`;
  if (!CURRENT_ID.test(id)) return `must be letters, digits, ".", "_", ":" or "-", starting with a letter or digit, got ${quote(id)}`;
  return null;
};

/**
 * Legacy ids are integers >= 1 (docs/interface.md#legacy-conventions); the graph carries them as the current API's string
 * ids. A key that is not such an integer cannot name a legacy resource.
 */
export function isLegacyId(id: string): boolean {
  return /^[1-9]\d{0,14}$/.test(id);
}

/** Ids of the legacy API: integers >= 1. */
export const legacyApiId: IdRule = (id) => (isLegacyId(id) ? null : `must be a legacy id, an integer >= 1, got ${quote(id)}`);

/** Checks of one field's arguments by schema coordinate (`"Type.field"` → check), throwing BAD_USER_INPUT. */
export type FieldChecks = Record<string, (args: Record<string, any>) => void>;

export interface InputCheckOptions {
  ids: IdRule;
  /**
   * the id rule of particular fields' arguments, by coordinate (`Query.employee`), where it is not
   * `ids`: legacy-time's `employee(id:)` takes the current API's ids, as people's does
   */
  idsByField?: Readonly<Record<string, IdRule>>;
  /** throws when `after` is not a cursor of this service (a subgraph's signature check; the gateway's check of its shape, `checkCursorShape`) */
  after?: (cursor: string) => void;
  fields?: FieldChecks;
  /** GRAPH_PREFIX: the schema's own names carry it (`DirType.field`, `Query.dirItems`); `fields` names them without it */
  prefix?: string | null;
}

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,7})?$/;

/**
 * A legacy date-time (docs/interface.md#legacy-conventions): an RFC 3339 date-time without its
 * offset, on a real calendar day, seconds with at most 7 decimals. A scalar's own parser may let an
 * offset and `2026-02-30T…` through; `FORMATS` applies this one to the scalars that name it.
 */
export function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME.exec(value);
  return m !== null && isIsoDate(m[1]!);
}

/**
 * The value formats this module checks, by the URL a scalar gives in `@specifiedBy`: the rules know
 * formats, never the graph's type names, so that the gateway reads them from its API schema and a
 * subgraph from its own, under any GRAPH_PREFIX. Every format here orders its values as strings
 * (fixed-width fields, the most significant first), which the range rule relies on.
 */
interface ValueFormat {
  valid(value: string): boolean;
  /** what a value must be, in the refusal: `<argument> must be <expected>, got "<value>"` */
  expected: string;
  /** whether a mutation's arguments are refused here too (else its resolver refuses them, as data where its result says so) */
  inMutations: boolean;
}

const FORMATS: ReadonlyMap<string, ValueFormat> = new Map([
  // RFC 3339 full-date, a day that exists (its section 5.7)
  ["https://www.rfc-editor.org/rfc/rfc3339#section-5.6", { valid: isIsoDate, expected: "a calendar date as YYYY-MM-DD", inMutations: true }],
  // RFC 3339 date-time without its offset (docs/interface.md#legacy-conventions)
  [
    "https://spec.openapis.org/registry/format/date-time-local",
    { valid: isLocalDateTime, expected: "a local date-time without offset as YYYY-MM-DDTHH:mm:ss on a calendar day", inMutations: false },
  ],
]);

/** The format a scalar declares with `@specifiedBy`, when this module knows it. */
export function scalarFormat(scalar: GraphQLScalarType): ValueFormat | undefined {
  return scalar.specifiedByURL ? FORMATS.get(scalar.specifiedByURL) : undefined;
}

/**
 * Whether an input object is a range: its fields are exactly `from` and `to`, both of one scalar
 * with a known format, so that one whose `from` comes after its `to` is refused. Which inputs of
 * the committed schemas this matches is pinned by test/schema/value-formats.test.ts.
 */
export function isRange(input: GraphQLInputObjectType): boolean {
  const fields = input.getFields();
  if (!fields.from || !fields.to || Object.keys(fields).length !== 2) return false;
  const from = getNullableType(fields.from.type);
  return isScalarType(from) && from === getNullableType(fields.to.type) && scalarFormat(from) !== undefined;
}

/**
 * A schema name as the field rules know it: under GRAPH_PREFIX=Dir, `DirEmployee` is `Employee` and
 * the root field `dirItems` is `items` (the namespacing of docs/graph.md), so that the
 * checks run the same in a company supergraph.
 */
function baseNames(prefix: string | null | undefined): { type(name: string): string; rootField(name: string): string } {
  if (!prefix) return { type: (name) => name, rootField: (name) => name };
  const root = rootFieldPrefix(prefix);
  const strip = (name: string, head: string) => (name.startsWith(head) && /[A-Z]/.test(name.charAt(head.length)) ? name.slice(head.length) : null);
  return {
    type: (name) => strip(name, prefix) ?? name,
    rootField: (name) => {
      const rest = strip(name, root);
      return rest === null ? name : rest[0]!.toLowerCase() + rest.slice(1);
    },
  };
}

function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}


/** The Apollo Server plugin running `checkOperation` once the operation is known. */
export function inputChecks<C extends BaseContext>(options: InputCheckOptions): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, schema, request }) {
          if (operation) checkOperation(schema, document, operation, request.variables ?? {}, options);
        },
      };
    },
  };
}

/** Throws the first problem of the operation's arguments as BAD_USER_INPUT. */
export function checkOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Record<string, unknown>,
  options: InputCheckOptions,
): void {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables, { maxErrors: 1 });
  // variables that do not coerce are refused by execution itself, with their own message
  if (coerced.errors) return;
  const variables = coerced.coerced;
  const names = baseNames(options.prefix);
  const rootTypes = new Set([schema.getQueryType(), schema.getMutationType()].filter((t) => t !== null && t !== undefined));
  for (const { field, parent, node } of fieldsWithArguments(schema, document, operation)) {
    const coordinate = rootTypes.has(parent as GraphQLObjectType)
      ? `${parent.name}.${names.rootField(field.name)}`
      : `${names.type(parent.name)}.${field.name}`;
    // the representations are the gateway's, checked one by one (entities.ts)
    if (coordinate === `${schema.getQueryType()?.name}._entities`) continue;
    // a mutation's own ids and lists are its resolver's to refuse, as data where its result
    // type says so; only what its scalars cannot carry (a date that is no day) is refused here
    const only = parent === schema.getMutationType() ? "scalars" : "all";
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(field, node, variables);
    } catch {
      continue; // execution reports it
    }
    const at = node.alias?.value ?? node.name.value;
    const own = options.idsByField?.[coordinate];
    const rules = own ? { ...options, ids: own } : options;
    for (const arg of field.args) {
      const value = args[arg.name];
      if (value === undefined || value === null) continue;
      checkValue(value, arg.type, `${at}.${arg.name}`, arg.name, rules, only);
      if (only === "scalars") continue;
      if (arg.name === "first" && getNamedType(arg.type).name === "Int") checkFirst(value as number, `${at}.first`);
      if (arg.name === "after" && typeof value === "string") options.after?.(value);
    }
    if (only === "all") options.fields?.[coordinate]?.(args);
  }
}

interface FieldWithArguments {
  field: GraphQLField<unknown, unknown>;
  parent: GraphQLCompositeType;
  node: FieldNode;
}

/**
 * Every field of the operation (and of the document's fragments) that takes arguments, with its
 * definition: one walk with TypeInfo per parsed document and schema, kept while both live (Apollo
 * Server hands every request of the same text the same parsed document), so that a request only
 * reads its arguments instead of walking the whole operation again.
 */
const fieldsByDocument = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, FieldWithArguments[]>>();

function fieldsWithArguments(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): FieldWithArguments[] {
  let bySchema = fieldsByDocument.get(schema);
  if (!bySchema) fieldsByDocument.set(schema, (bySchema = new WeakMap()));
  let found = bySchema.get(operation);
  if (found) return found;
  found = [];
  const typeInfo = new TypeInfo(schema);
  const roots = [operation, ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)];
  for (const root of roots) {
    visit(
      root,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const field = typeInfo.getFieldDef();
          const parent = typeInfo.getParentType();
          if (field && parent && field.args.length > 0) found!.push({ field, parent, node });
        },
      }),
    );
  }
  bySchema.set(operation, found);
  return found;
}

function checkFirst(first: number, name: string): void {
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) throw badUserInput(`${name} must be between 0 and ${MAX_FIRST}, got ${first}`, "first");
}

function checkValue(
  value: unknown,
  type: GraphQLInputType,
  name: string,
  field: string,
  options: InputCheckOptions,
  only: "all" | "scalars",
): void {
  if (value === null || value === undefined) return;
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) {
    const list = Array.isArray(value) ? value : [value];
    if (only === "all" && list.length > MAX_FILTER_VALUES) throw badUserInput(`${name} takes at most ${MAX_FILTER_VALUES} entries, got ${list.length}`, field);
    list.forEach((entry) => checkValue(entry, nullable.ofType, name, field, options, only));
    return;
  }
  if (isInputObjectType(nullable)) {
    const object = value as Record<string, unknown>;
    for (const inner of Object.values(nullable.getFields())) {
      checkValue(object[inner.name], inner.type, `${name}.${inner.name}`, `${field}.${inner.name}`, options, only);
    }
    if (isRange(nullable)) checkRange(object.from, object.to, name, field);
    return;
  }
  if (isScalarType(nullable) && typeof value === "string") {
    if (nullable.name === "ID") {
      if (only === "scalars") return;
      const problem = options.ids(value);
      if (problem !== null) throw badUserInput(`${name}: the id ${problem}`, field);
      return;
    }
    const format = scalarFormat(nullable);
    if (format && (only === "all" || format.inMutations) && !format.valid(value)) {
      throw badUserInput(`${name} must be ${format.expected}, got ${quote(value)}`, field);
    }
  }
}

function checkRange(from: unknown, to: unknown, name: string, field: string): void {
  if (typeof from === "string" && typeof to === "string" && from > to) {
    throw badUserInput(`${name} starts (${from}) after it ends (${to})`, field);
  }
}
