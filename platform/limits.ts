import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  parse,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  valueFromASTUntyped,
  visit,
  BREAK,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type OperationDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import { Environment } from "./config.js";
import { truncate, type Logger } from "./log.js";
import { ErrorCode } from "./error-codes.js";
import { processMetrics } from "./metrics.js";

/**
 * Operation limits: what one GraphQL document may ask for, checked by the gateway and by every
 * subgraph server before validation, planning or any upstream call.
 *
 * Apollo Server validates a document with all of graphql-js's rules at once; some of them
 * (overlapping fields) grow with the square of the fields of a selection, so a hostile document
 * can hold the event loop for minutes inside validation. The limits are therefore checked in two
 * cheap linear passes before it: the size and the token count on the source text, before the
 * parse, and the shape on the parsed document, one walk in which every fragment is measured once.
 */

export interface OperationLimits {
  /** GRAPHQL_MAX_BYTES: characters of the document */
  bytes: number;
  /** GRAPHQL_MAX_TOKENS: lexical tokens of the document */
  tokens: number;
  /** GRAPHQL_MAX_DEPTH: nesting of fields (a root field is depth 1; introspection not counted) */
  depth: number;
  /** GRAPHQL_MAX_ALIASES: aliased fields, fragments counted where they are spread */
  aliases: number;
  /** GRAPHQL_MAX_FIELDS_PER_SELECTION: fields one selection set collects (its fragments included) */
  fieldsPerSelection: number;
  /** GRAPHQL_MAX_DIRECTIVES: directives, fragments counted where they are spread */
  directives: number;
  /** GRAPHQL_MAX_ROOT_FIELDS: fields at the root of one operation */
  rootFields: number;
  /** GRAPHQL_MAX_MUTATION_FIELDS: mutation fields of one operation */
  mutationFields: number;
  /** GRAPHQL_MAX_COST: fields, each weighted by the list sizes above it */
  cost: number;
  /**
   * GRAPHQL_MAX_FIELD_MERGES: comparisons of fields sharing a response name (`manager` twice in
   * one selection, directly or through fragments) that validation makes to check they can merge;
   * they multiply with nesting
   */
  fieldMerges: number;
}

export type LimitName = keyof OperationLimits;

/** Defaults: the largest operation of `operations/` stays well below each of them. */
export const DEFAULT_OPERATION_LIMITS: Readonly<OperationLimits> = {
  bytes: 32_768,
  tokens: 2_000,
  depth: 15,
  aliases: 30,
  fieldsPerSelection: 100,
  directives: 50,
  rootFields: 15,
  mutationFields: 5,
  cost: 50_000,
  fieldMerges: 2_000,
};

export const LIMIT_VARIABLES: Readonly<Record<LimitName, string>> = {
  bytes: "GRAPHQL_MAX_BYTES",
  tokens: "GRAPHQL_MAX_TOKENS",
  depth: "GRAPHQL_MAX_DEPTH",
  aliases: "GRAPHQL_MAX_ALIASES",
  fieldsPerSelection: "GRAPHQL_MAX_FIELDS_PER_SELECTION",
  directives: "GRAPHQL_MAX_DIRECTIVES",
  rootFields: "GRAPHQL_MAX_ROOT_FIELDS",
  mutationFields: "GRAPHQL_MAX_MUTATION_FIELDS",
  cost: "GRAPHQL_MAX_COST",
  fieldMerges: "GRAPHQL_MAX_FIELD_MERGES",
};

/** Read from the environment at start-up; a bad value throws a ConfigError naming the variable. */
export function loadOperationLimits(env: NodeJS.ProcessEnv = process.env): OperationLimits {
  const e = new Environment(env);
  const limits = { ...DEFAULT_OPERATION_LIMITS };
  for (const name of Object.keys(LIMIT_VARIABLES) as LimitName[]) {
    // bytes: at least a small document; the body limit of the HTTP layer (1 MiB) bounds it anyway
    limits[name] = e.integer(LIMIT_VARIABLES[name], DEFAULT_OPERATION_LIMITS[name], 1, name === "bytes" ? 1 << 20 : 10_000_000);
  }
  return limits;
}

/** What the client sees: 400, `OPERATION_LIMIT_EXCEEDED`, the limit's name and maximum. */
export class OperationLimitError extends GraphQLError {
  constructor(limit: LimitName, max: number, actual: number | string) {
    super(`Operation limit exceeded: ${limit} is ${actual}, the maximum is ${max}`, {
      extensions: { code: ErrorCode.OPERATION_LIMIT_EXCEEDED, limit, value: max, actual, http: { status: 400 } },
    });
  }
}

/** Tokens of `source`, counting stops at `max + 1` (the lexer does not go further). */
export function countTokens(source: string, max: number): number {
  const lexer = new Lexer(new Source(source));
  let count = 0;
  try {
    while (count <= max && lexer.advance().kind !== TokenKind.EOF) count++;
  } catch {
    // a lexical error: the parse reports it
  }
  return count;
}

export function checkSource(source: string, limits: OperationLimits): void {
  if (source.length > limits.bytes) throw new OperationLimitError("bytes", limits.bytes, source.length);
  const tokens = countTokens(source, limits.tokens);
  if (tokens > limits.tokens) throw new OperationLimitError("tokens", limits.tokens, `more than ${limits.tokens}`);
}

/** The measures of a parsed document that `measureDocument` takes (the limits of the same names). */
export type OperationShape = Pick<OperationLimits, "depth" | "aliases" | "fieldsPerSelection" | "directives" | "rootFields" | "mutationFields" | "cost">;

interface Measure {
  depth: number;
  aliases: number;
  directives: number;
  cost: number;
  /** fields this selection set collects (for the per-selection limit of its parent set) */
  fields: number;
  /** the largest `fields` of any selection set inside */
  widest: number;
}

const EMPTY: Measure = { depth: 0, aliases: 0, directives: 0, cost: 0, fields: 0, widest: 0 };

const INTROSPECTION_ROOTS = new Set(["__schema", "__type"]);

/** The arguments whose list of ids is the length of the list a field returns (`nodes(nodeIds:)`, subgraphs/shared/graphql/node.ts). */
const ID_LIST_ARGUMENTS = new Set(["nodeIds"]);

/** Size assumed for a list whose length the operation does not state (no `first`). */
export const ASSUMED_LIST_SIZE = 10;

/**
 * The shape of every operation of a document (the largest value of each measure), without
 * validating it first: unknown fields count as scalars, unknown fragments as empty, a fragment
 * cycle stops where it closes (validation then refuses the document).
 */
export function measureDocument(document: DocumentNode, schema: GraphQLSchema | undefined, given: Record<string, unknown> = {}, options: { gatewayBatches?: boolean } = {}): OperationShape {
  let variables = given;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, Measure>();
  const visiting = new Set<string>();

  const fragment = (name: string): Measure => {
    const known = memo.get(name);
    if (known) return known;
    const definition = fragments.get(name);
    if (!definition || visiting.has(name)) return EMPTY;
    visiting.add(name);
    const measured = set(definition.selectionSet, schema?.getType(definition.typeCondition.name.value) ?? undefined);
    visiting.delete(name);
    memo.set(name, measured);
    return measured;
  };

  const set = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined): Measure => {
    const m = { ...EMPTY };
    const merge = (inner: Measure, directives: number) => {
      m.depth = Math.max(m.depth, inner.depth);
      m.aliases += inner.aliases;
      m.directives += inner.directives + directives;
      m.cost += inner.cost;
      m.fields += inner.fields;
      m.widest = Math.max(m.widest, inner.widest);
    };
    for (const s of selectionSet.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) merge(fragment(s.name.value), s.directives?.length ?? 0);
      else if (s.kind === Kind.INLINE_FRAGMENT) {
        const type = s.typeCondition ? (schema?.getType(s.typeCondition.name.value) ?? undefined) : parent;
        merge(set(s.selectionSet, type), s.directives?.length ?? 0);
      } else {
        m.fields++;
        if (s.alias) m.aliases++;
        m.directives += s.directives?.length ?? 0;
        const definition = fieldOf(parent, s.name.value);
        if (!s.selectionSet) {
          m.cost += 1;
          m.depth = Math.max(m.depth, 1);
          continue;
        }
        const inner = set(s.selectionSet, definition ? getNamedType(definition.type) : undefined);
        // introspection's nested `ofType` (development tools ask 10 levels) reads no data: its
        // depth is not counted, the token limit bounds it
        m.depth = Math.max(m.depth, INTROSPECTION_ROOTS.has(s.name.value) ? 1 : inner.depth + 1);
        m.aliases += inner.aliases;
        m.directives += inner.directives;
        m.cost += 1 + listSize(s, definition, parent, variables) * inner.cost;
        m.widest = Math.max(m.widest, inner.widest);
      }
    }
    m.widest = Math.max(m.widest, m.fields);
    return m;
  };

  const shape: OperationShape = { depth: 0, aliases: 0, fieldsPerSelection: 0, directives: 0, rootFields: 0, mutationFields: 0, cost: 0 };
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    // what runs: a variable the request leaves out takes its default (docs/security.md#cost);
    // the fragments are measured again for each operation, whose variables may differ
    variables = withDefaults(d, given);
    memo.clear();
    const root = d.operation === "query" ? schema?.getQueryType() : d.operation === "mutation" ? schema?.getMutationType() : schema?.getSubscriptionType();
    const m = set(d.selectionSet, root ?? undefined);
    if (options.gatewayBatches && isEntitiesBatch(d.selectionSet)) {
      // the gateway's batch of entity fetches for one client operation, which the gateway measured
      // whole: its root fields are the gateway's, not the client's (docs/decisions.md)
      let rootAliases = 0;
      for (const s of d.selectionSet.selections) if (s.kind === Kind.FIELD && s.alias) rootAliases++;
      m.aliases -= rootAliases;
      m.fields = 1;
      m.widest = 0;
      for (const s of d.selectionSet.selections) if (s.kind === Kind.FIELD && s.selectionSet) m.widest = Math.max(m.widest, set(s.selectionSet, undefined).widest);
    }
    shape.depth = Math.max(shape.depth, m.depth);
    shape.aliases = Math.max(shape.aliases, m.aliases);
    shape.fieldsPerSelection = Math.max(shape.fieldsPerSelection, m.widest);
    shape.directives = Math.max(shape.directives, m.directives + (d.directives?.length ?? 0));
    shape.rootFields = Math.max(shape.rootFields, m.fields);
    if (d.operation === "mutation") shape.mutationFields = Math.max(shape.mutationFields, m.fields);
    shape.cost = Math.max(shape.cost, m.cost);
  }
  return shape;
}

/** The request's variables, with the operation's default for each one it leaves out. */
function withDefaults(operation: OperationDefinitionNode, given: Record<string, unknown>): Record<string, unknown> {
  const defaults = (operation.variableDefinitions ?? []).filter((v) => v.defaultValue !== undefined && given[v.variable.name.value] === undefined);
  if (defaults.length === 0) return given;
  const variables = { ...given };
  for (const v of defaults) variables[v.variable.name.value] = valueFromASTUntyped(v.defaultValue!, given);
  return variables;
}

/** Whether every root selection is an `_entities` field: the form of the gateway's entity fetches. */
function isEntitiesBatch(selectionSet: SelectionSetNode): boolean {
  return selectionSet.selections.length > 1 && selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value === "_entities");
}

function fieldOf(parent: GraphQLNamedType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
  if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return undefined;
  return parent.getFields()[name];
}

/**
 * How many times a field's selection is resolved per parent: `first` (the argument, its variable
 * or its default) for a paged field; 1 for the lists of a connection (`nodes`, `edges`: `first`
 * counted them already) and for `_entities` (the gateway's own batches, bounded by the subgraph);
 * the length of the list of ids it is given for a list read by ids (`nodes(nodeIds:)`,
 * ID_LIST_ARGUMENTS); ASSUMED_LIST_SIZE for other lists; 1 otherwise.
 */
function listSize(node: FieldNode, definition: GraphQLField<unknown, unknown> | undefined, parent: GraphQLNamedType | undefined, variables: Record<string, unknown>): number {
  const firstArgument = definition?.args.find((a) => a.name === "first");
  if (firstArgument) {
    const given = node.arguments?.find((a) => a.name.value === "first");
    // a variable the request leaves out, with no default, leaves the argument's own default
    const value = (given ? valueFromASTUntyped(given.value, variables) : undefined) ?? firstArgument.defaultValue;
    return typeof value === "number" && Number.isFinite(value) ? Math.max(1, value) : ASSUMED_LIST_SIZE;
  }
  if (!definition || !isListType(getNullableType(definition.type))) return 1;
  if (node.name.value === "_entities" || parent?.name.endsWith("Connection")) return 1;
  const ids = node.arguments?.find((a) => ID_LIST_ARGUMENTS.has(a.name.value));
  if (ids) {
    const value = valueFromASTUntyped(ids.value, variables);
    // one id given as it is (input coercion makes it a list of one)
    return Array.isArray(value) ? Math.max(1, value.length) : 1;
  }
  return ASSUMED_LIST_SIZE;
}

export function checkShape(shape: OperationShape, limits: OperationLimits): void {
  for (const name of ["depth", "aliases", "fieldsPerSelection", "directives", "rootFields", "mutationFields", "cost"] as const) {
    if (shape[name] > limits[name]) throw new OperationLimitError(name, limits[name], shape[name]);
  }
}

/**
 * The comparisons of same-named fields graphql-js's OverlappingFieldsCanBeMerged rule makes: in
 * every selection set (its fragments collected), each pair of fields with one response name, and
 * for a pair with sub-selections, each pair of same-named fields across them, recursively. The
 * work multiplies with nesting (`manager` twice at each of 8 levels is 2^8 leaves, half a second
 * of validation in 2 000 tokens), so it is counted, and the count stops at `max + 1`.
 */
export function countFieldMerges(document: DocumentNode, max: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const collected = new WeakMap<SelectionSetNode, Map<string, FieldNode[]>>();
  let count = 0;
  class Enough extends Error {}

  const collect = (set: SelectionSetNode): Map<string, FieldNode[]> => {
    const known = collected.get(set);
    if (known) return known;
    const byName = new Map<string, FieldNode[]>();
    const seen = new Set<string>();
    const walk = (s: SelectionSetNode) => {
      for (const sel of s.selections) {
        if (sel.kind === Kind.FIELD) {
          const name = sel.alias?.value ?? sel.name.value;
          const list = byName.get(name);
          if (list) list.push(sel);
          else byName.set(name, [sel]);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
        else if (!seen.has(sel.name.value)) {
          // a fragment counts once per selection set, as graphql-js collects it
          seen.add(sel.name.value);
          const f = fragments.get(sel.name.value);
          if (f) walk(f.selectionSet);
        }
      }
    };
    walk(set);
    collected.set(set, byName);
    return byName;
  };
  const between = (a: FieldNode, b: FieldNode): void => {
    if (++count > max) throw new Enough();
    if (!a.selectionSet || !b.selectionSet) return;
    const inB = collect(b.selectionSet);
    for (const [name, fieldsA] of collect(a.selectionSet)) {
      const fieldsB = inB.get(name);
      if (fieldsB) for (const fa of fieldsA) for (const fb of fieldsB) between(fa, fb);
    }
  };
  const within = (set: SelectionSetNode): void => {
    for (const fields of collect(set).values()) {
      for (let i = 0; i < fields.length; i++) for (let j = i + 1; j < fields.length; j++) between(fields[i]!, fields[j]!);
    }
  };
  try {
    // every selection set of the document once, as the validation rule visits them
    const visit = (set: SelectionSetNode): void => {
      within(set);
      for (const sel of set.selections) if (sel.kind !== Kind.FRAGMENT_SPREAD && sel.selectionSet) visit(sel.selectionSet);
    };
    for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) visit(d.selectionSet);
  } catch (err) {
    if (!(err instanceof Enough)) throw err;
  }
  return count;
}

/** An operation as the HTTP layer reads it from a request, before Apollo Server sees it. */
export interface RequestedOperation {
  query: string;
  operationName?: unknown;
  variables: Record<string, unknown>;
  /** the request's id, for the guard's log line (platform/http.ts) */
  requestId?: string;
  /** set by the guard once the operation passed: its measured shape (cost, mutation fields) */
  shape?: OperationShape;
  /** set by the guard once the operation passed: the document parsed (absent when it does not parse) */
  document?: DocumentNode;
}

/** How many accepted operation texts a guard keeps parsed (then it starts again). */
const ACCEPTED_TEXTS = 500;

interface Accepted {
  document: DocumentNode;
  /** no `first` takes a variable: the shape is the same for any variables */
  constantShape: boolean;
  /** the schema the constant shape passed against */
  schema: GraphQLSchema | undefined;
  /** the constant shape, once measured */
  shape?: OperationShape;
}

/** Whether a variable gives some field's `first` or list of ids (the only measures variables change: listSize). */
function sizedByVariables(document: DocumentNode): boolean {
  let sized = false;
  visit(document, {
    Argument(node) {
      if (node.name.value !== "first" && !ID_LIST_ARGUMENTS.has(node.name.value)) return;
      visit(node.value, {
        Variable() {
          sized = true;
          return BREAK;
        },
      });
      if (sized) return BREAK;
    },
  });
  return sized;
}

/**
 * The check of one request against the limits: the size and tokens on the text, then (when it
 * parses: a syntax error is left to Apollo's own answer) the shape on the document. Runs in the
 * HTTP layer, before Apollo Server parses and validates: an error thrown from an Apollo plugin
 * hook before validation can only become a 500. A refusal is logged as the operation's line.
 *
 * `gatewayBatches`: a subgraph that only answers its gateway (SUBGRAPH_SECRET) counts a request of
 * `_entities` root fields alone as the client operation it is part of: the gateway measured that
 * operation whole, and batches the entity fetches of its lookups into one request (8 aliased
 * lookups of an employee's department and establishment are 16 `_entities` fields to
 * organisation). Its root fields, their aliases and their number are not the client's and are not
 * counted; everything inside them is, against the same limits.
 */
export function operationGuard(limits: OperationLimits, schema: () => GraphQLSchema | undefined, logger: Logger, options: { gatewayBatches?: boolean } = {}) {
  // the texts that passed the checks on the text alone (size, tokens, field merges), parsed: a
  // client sends the same few operations again and again; the shape depends on the variables
  // (`first`) and is measured every time
  const accepted = new Map<string, Accepted>();
  return (operation: RequestedOperation): OperationLimitError | null => {
    const started = performance.now();
    try {
      const known = accepted.get(operation.query);
      if (known) {
        operation.document = known.document;
        const current = schema();
        // a shape no variable sizes is the text's own: measured once per schema
        if (known.constantShape && known.schema === current && known.shape) {
          operation.shape = known.shape;
          return null;
        }
        const shape = measureDocument(known.document, current, operation.variables, options);
        checkShape(shape, limits);
        operation.shape = shape;
        if (known.constantShape) {
          known.schema = current;
          known.shape = shape;
        }
        return null;
      }
      checkSource(operation.query, limits);
      let document: DocumentNode | undefined;
      try {
        document = parse(operation.query, { noLocation: true, maxTokens: limits.tokens });
      } catch {
        // Apollo answers the syntax error
      }
      if (document) {
        const shape = measureDocument(document, schema(), operation.variables, options);
        checkShape(shape, limits);
        const merges = countFieldMerges(document, limits.fieldMerges);
        if (merges > limits.fieldMerges) throw new OperationLimitError("fieldMerges", limits.fieldMerges, `more than ${limits.fieldMerges}`);
        operation.shape = shape;
        operation.document = document;
        if (accepted.size >= ACCEPTED_TEXTS) accepted.clear();
        const constantShape = !sizedByVariables(document);
        accepted.set(operation.query, { document, constantShape, schema: constantShape ? schema() : undefined, ...(constantShape ? { shape } : {}) });
      }
      return null;
    } catch (err) {
      if (!(err instanceof OperationLimitError)) throw err;
      processMetrics().refused(logger.component, String(err.extensions.limit));
      logger.info("operation", {
        ...(operation.requestId !== undefined ? { requestId: operation.requestId } : {}),
        operation: typeof operation.operationName === "string" ? truncate(operation.operationName) : null,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        errors: 1,
        codes: [err.extensions.code],
        limit: err.extensions.limit,
      });
      return err;
    }
  };
}
