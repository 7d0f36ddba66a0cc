import { apolloModules } from "./internals.js";
import { Kind, type DefinitionNode, type DocumentNode, type GraphQLError } from "graphql";

/**
 * The gateway's result shaping, compiled once per operation instead of interpreted per request.
 *
 * After a query plan has run, `@apollo/gateway` builds the response from the merged subgraph data
 * with `computeResponse` (dist/resultShaping.js): it walks the operation's selections (aliases,
 * `@skip`/`@include`, fragments against the runtime `__typename`, null propagation, leaf checks).
 * Per request it also rebuilds that operation from the document (`operationFromDocument`) and, per
 * selection, reads the directives, the field's type and its name through
 * `@apollo/federation-internals`' getters. Under load that was two fifths of the gateway's CPU on
 * the benchmark's large list (docs/performance.md, "Query plans"), and neither function has a hook or an
 * option; no library shapes `@apollo/gateway`'s results, so this is written here.
 *
 * What this does, keeping the library's semantics and messages:
 * - the operation built from a document is kept with the document's operation node (the parsed
 *   document is cached by Apollo Server, so its nodes are stable), per schema;
 * - per such operation, its selections are read once into plain steps: response name, conditions,
 *   the field's type unwrapped, the fragment's type condition with its answers per runtime type;
 * - `computeResponse` runs those steps, and builds objects that keep a fixed shape (no prototype,
 *   but not dictionary-mode as `Object.create(null)`), which the response's `JSON.stringify` walks
 *   faster.
 * Both are installed by replacing the two modules' exports, which the library reads at each call.
 * Only where internals.ts's one check passes: another `@apollo/gateway` keeps its own functions
 * until this is checked against it (test/gateway/result-shaping.test.ts compares both on the same
 * inputs).
 */

// the federation-internals objects this reads: the subset of their API used here
interface NamedType { readonly kind: string; readonly name: string; toString(): string }
interface WrapperType { readonly kind: "NonNullType" | "ListType"; readonly ofType: LibType; toString(): string }
type LibType = NamedType | WrapperType;
interface LibSchema { type(name: string): NamedType | undefined; skipDirective(): unknown; includeDirective(): unknown; schemaDefinition: { rootType(kind: string): NamedType } }
interface LibDirective { arguments(): { if?: unknown } }
interface LibElement {
  readonly kind: "Field" | "FragmentElement";
  appliedDirectivesOf(definition: unknown): LibDirective[];
}
interface LibField extends LibElement { readonly name: string; responseName(): string; readonly definition: { readonly type: LibType; isSchemaIntrospectionField(): boolean } }
interface LibFragment extends LibElement { readonly typeCondition?: NamedType }
interface LibSelection { readonly kind: "FieldSelection" | "FragmentSelection"; readonly element: LibElement; readonly selectionSet?: LibSelectionSet }
interface LibSelectionSet { selections(): readonly LibSelection[] }
interface LibOperation {
  schema(): LibSchema;
  readonly rootKind: string;
  readonly selectionSet: LibSelectionSet;
  collectDefaultedVariableValues(): Record<string, unknown>;
}
type Introspection = (selection: LibSelection) => unknown;
interface ShapingInput { operation: LibOperation; variables?: Record<string, unknown>; input: Record<string, unknown> | null | undefined; introspectionHandling: Introspection }

const NON_NULL = 0, LIST = 1, COMPOSITE = 2, LEAF = 3;
interface TypeStep {
  readonly kind: number;
  readonly of: TypeStep | null;
  readonly type: LibType;
  /** a leaf's check of a subgraph's value (the library's isValidLeafValue for this type); null: any value */
  readonly valid: ((value: unknown) => boolean) | null;
}
/** `@skip(if:)` (skip) or `@include(if:)`: a literal, or the variable it reads. */
interface Condition { readonly skip: boolean; readonly variable: string | null; readonly value: unknown; readonly directive: LibDirective }
const FIELD = 0, TYPENAME = 1, INTROSPECTION = 2, FRAGMENT = 3;
interface Step {
  readonly kind: number;
  readonly conditions: readonly Condition[] | null;
  readonly responseName: string;
  /** the response name is one Object.prototype has: read the input with an own-property check */
  readonly inherited: boolean;
  readonly type: TypeStep | null;
  readonly steps: readonly Step[] | null;
  readonly selection: LibSelection;
  readonly typeCondition: NamedType | null;
  /** a fragment's answers: does it apply to this runtime type name (or this parent type)? */
  readonly applies: Map<unknown, boolean> | null;
}
interface Plan { readonly steps: readonly Step[]; readonly defaults: Record<string, unknown> | null; readonly root: NamedType }

// the library's functions, copied once: each read through federation-internals' index is a getter
interface FederationInternals {
  isSubtype(type: NamedType, maybeSubType: NamedType): boolean;
  isCompositeType(type: NamedType): boolean;
  isCustomScalarType(type: LibType): boolean;
  Variable: new (...args: never[]) => { readonly name: string };
  ERRORS: { INVALID_GRAPHQL: { err(message: string, options: { path: (string | number)[] }): GraphQLError } };
  assert(condition: unknown, message: () => string): asserts condition;
}
let lib: FederationInternals;

/** Output objects: a fixed shape and no inherited names (`constructor`, `__proto__` are data here). */
const NO_PROTOTYPE: object = Object.freeze(Object.create(null));
const newObject = (): Record<string, unknown> => Object.create(NO_PROTOTYPE);

const plans = new WeakMap<LibOperation, Plan>();

// isValidLeafValue (federation-internals' values.js) for each built-in scalar, decided once per field
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const isInteger = (v: unknown): boolean => typeof v === "number" && isFinite(v) && INTEGER.test(String(v));
const BUILT_IN_CHECKS: Record<string, (value: unknown) => boolean> = {
  Int: isInteger,
  ID: (v) => typeof v === "string" || isInteger(v),
  Float: (v) => typeof v === "number" && isFinite(v),
  String: (v) => typeof v === "string",
  Boolean: (v) => typeof v === "boolean",
};

function typeStep(type: LibType): TypeStep {
  if (type.kind === "NonNullType") return { kind: NON_NULL, of: typeStep((type as WrapperType).ofType), type, valid: null };
  if (type.kind === "ListType") return { kind: LIST, of: typeStep((type as WrapperType).ofType), type, valid: null };
  if (lib.isCompositeType(type as NamedType)) return { kind: COMPOSITE, of: null, type, valid: null };
  if (type.kind === "EnumType") {
    const enumType = type as NamedType & { value(name: string): unknown };
    return { kind: LEAF, of: null, type, valid: (v) => typeof v === "string" && enumType.value(v) !== undefined };
  }
  // a custom scalar takes any value, as in the library
  return { kind: LEAF, of: null, type, valid: lib.isCustomScalarType(type) ? null : BUILT_IN_CHECKS[(type as NamedType).name]! };
}

function conditionsOf(element: LibElement, schema: LibSchema): Condition[] | null {
  const conditions: Condition[] = [];
  // as the library: the first @skip and the first @include
  for (const [skip, definition] of [[true, schema.skipDirective()], [false, schema.includeDirective()]] as const) {
    const directive = element.appliedDirectivesOf(definition)[0];
    if (!directive) continue;
    const value = directive.arguments().if;
    conditions.push({ skip, variable: value instanceof lib.Variable ? value.name : null, value, directive });
  }
  return conditions.length ? conditions : null;
}

/** Steps of a selection set; a named fragment's set is shared by its spreads, and read once. */
function stepsOf(selectionSet: LibSelectionSet, schema: LibSchema, seen: Map<LibSelectionSet, Step[]>): Step[] {
  const known = seen.get(selectionSet);
  if (known) return known;
  const steps: Step[] = [];
  seen.set(selectionSet, steps);
  for (const selection of selectionSet.selections()) {
    const conditions = conditionsOf(selection.element, schema);
    const sub = selection.selectionSet ? stepsOf(selection.selectionSet, schema, seen) : null;
    if (selection.kind === "FieldSelection") {
      const field = selection.element as LibField;
      const responseName = field.responseName();
      const kind = field.definition.isSchemaIntrospectionField() ? INTROSPECTION : field.name === "__typename" ? TYPENAME : FIELD;
      steps.push({
        kind, conditions, responseName, inherited: responseName in Object.prototype,
        type: kind === FIELD ? typeStep(field.definition.type) : null,
        steps: sub, selection, typeCondition: null, applies: null,
      });
    } else {
      const typeCondition = (selection.element as LibFragment).typeCondition ?? null;
      steps.push({ kind: FRAGMENT, conditions, responseName: "", inherited: false, type: null, steps: sub, selection, typeCondition, applies: typeCondition ? new Map() : null });
    }
  }
  return steps;
}

function planOf(operation: LibOperation): Plan {
  let plan = plans.get(operation);
  if (!plan) {
    const schema = operation.schema();
    const defaults = operation.collectDefaultedVariableValues();
    plan = {
      steps: stepsOf(operation.selectionSet, schema, new Map()),
      defaults: Object.keys(defaults).length ? defaults : null,
      root: schema.schemaDefinition.rootType(operation.rootKind),
    };
    plans.set(operation, plan);
  }
  return plan;
}

// One response is shaped synchronously; its inputs are these, saved and restored around a call.
let schema: LibSchema;
let variables: Record<string, unknown>;
let errors: GraphQLError[];
let introspect: Introspection;
// what the last `update` said besides its value (the library returns { updated, isInvalid, hasErrors })
let invalid = false;
let hasErrors = false;

function skipped(conditions: readonly Condition[]): boolean {
  for (const c of conditions) {
    let value = c.value;
    if (c.variable !== null) {
      value = Object.prototype.hasOwnProperty.call(variables, c.variable) ? variables[c.variable] : undefined;
      lib.assert(value !== undefined && typeof value === "boolean", () => `Unexpected value ${value} for variable ${c.value} of ${c.directive}`);
    }
    if (c.skip ? value : !value) return true;
  }
  return false;
}

function applies(step: Step, typename: unknown, parentType: NamedType): boolean {
  const condition = step.typeCondition;
  if (!condition) return true;
  const key = typename ? typename : parentType;
  let answer = step.applies!.get(key);
  if (answer === undefined) {
    if (typename) {
      const type = schema.type(typename as string);
      answer = !!type && lib.isSubtype(condition, type);
    } else {
      answer = lib.isSubtype(condition, parentType);
    }
    step.applies!.set(key, answer);
  }
  return answer;
}

function describe(path: (string | number)[], currentType: LibType, parentType: NamedType): string {
  const element = path[path.length - 1];
  lib.assert(element !== undefined, () => "Should not have been called on an empty path");
  return typeof element === "string" ? `field ${parentType}.${element}` : `array element of type ${currentType} at index ${element}`;
}

/** applySelectionSet: true when a null must propagate to the parent. */
function apply(input: Record<string, unknown>, steps: readonly Step[], output: Record<string, unknown>, path: (string | number)[], parentType: NamedType): boolean {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.conditions !== null && skipped(step.conditions)) continue;
    if (step.kind === FRAGMENT) {
      const typename = input.__typename;
      lib.assert(!typename || typeof typename === "string", () => `Got unexpected value for __typename: ${typename}`);
      if (applies(step, typename, parentType) && apply(input, step.steps!, output, path, step.typeCondition ?? parentType)) return true;
      continue;
    }
    const name = step.responseName;
    const outputValue = output[name];
    if (step.kind === INTROSPECTION) {
      if (outputValue === undefined) output[name] = introspect(step.selection);
      continue;
    }
    let inputValue = step.inherited && !Object.prototype.hasOwnProperty.call(input, name) ? null : (input[name] ?? null);
    if (step.kind === TYPENAME) {
      if (outputValue === undefined) {
        if (inputValue === null && name !== "__typename") inputValue = input.__typename ?? null;
        const type = typeof inputValue === "string" ? (schema.type(inputValue) ?? parentType) : parentType;
        if (type.kind !== "ObjectType") return true;
        output[name] = type.name;
      }
      continue;
    }
    path.push(name);
    output[name] = update(outputValue, step.type!, inputValue, step.steps, path, parentType);
    path.pop();
    if (invalid) return true;
  }
  return false;
}

/** updateOutputValue: the value to keep; sets `invalid` and `hasErrors`. */
function update(outputValue: unknown, type: TypeStep, inputValue: unknown, steps: readonly Step[] | null, path: (string | number)[], parentType: NamedType): unknown {
  if (outputValue === null || (outputValue !== undefined && !steps)) {
    invalid = hasErrors = false;
    return outputValue;
  }
  if (type.kind === NON_NULL) {
    const updated = update(outputValue, type.of!, inputValue, steps, path, parentType);
    if (updated === null) {
      if (!hasErrors) {
        errors.push(lib.ERRORS.INVALID_GRAPHQL.err(`Cannot return null for non-nullable ${describe(path, type.of!.type, parentType)}.`, { path: Array.from(path) }));
      }
      invalid = hasErrors = true;
      return null;
    }
    invalid = hasErrors = false;
    return updated;
  }
  if (inputValue === null) {
    invalid = hasErrors = false;
    return null;
  }
  switch (type.kind) {
    case LIST: {
      lib.assert(Array.isArray(inputValue), () => `Invalid non-list value ${inputValue} returned by subgraph for list type ${type.type}`);
      lib.assert(outputValue === undefined || Array.isArray(outputValue), () => `Invalid non-list value ${outputValue} returned by subgraph for list type ${type.type}`);
      const previous = outputValue as unknown[] | undefined;
      lib.assert(previous === undefined || inputValue.length === previous.length, () => `[${inputValue}].length (${inputValue.length}) !== [${previous}].length (${previous!.length})`);
      const updated = new Array(inputValue.length);
      let nullify = false;
      let errs = false;
      for (let i = 0; i < inputValue.length; i++) {
        path.push(i);
        updated[i] = update(previous === undefined ? undefined : previous[i], type.of!, inputValue[i], steps, path, parentType);
        path.pop();
        nullify ||= invalid;
        errs ||= hasErrors;
      }
      invalid = false;
      hasErrors = errs;
      return nullify ? null : updated;
    }
    case COMPOSITE: {
      lib.assert(steps, () => `Invalid empty selection set for composite type ${type.type}`);
      lib.assert(typeof inputValue === "object", () => `Invalid non-object value ${inputValue} returned by subgraph for composite type ${type.type}`);
      lib.assert(outputValue === undefined || typeof outputValue === "object", () => `Invalid non-object value ${inputValue} returned by subgraph for composite type ${type.type}`);
      const input = inputValue as Record<string, unknown>;
      const typename = input.__typename;
      lib.assert(typename === undefined || typeof typename === "string", () => `Invalid non-string value ${typename} for __typename at ${path}`);
      let objectType = type.type as NamedType;
      if (typename) {
        const named = schema.type(typename);
        if (!named || !lib.isCompositeType(named)) {
          errors.push(lib.ERRORS.INVALID_GRAPHQL.err(`Invalid __typename found for object at ${describe(path, type.type, parentType)}.`, { path: Array.from(path) }));
          invalid = false;
          hasErrors = true;
          return null;
        }
        objectType = named;
      }
      const output = (outputValue as Record<string, unknown> | undefined) ?? newObject();
      const bubble = apply(input, steps, output, path, objectType);
      invalid = false;
      hasErrors = bubble;
      return bubble ? null : output;
    }
    default: {
      lib.assert(outputValue === undefined, () => `Excepted output to be undefined but got ${type.type} for type ${type.type}`);
      const valid = type.valid === null || type.valid(inputValue);
      if (!valid) errors.push(lib.ERRORS.INVALID_GRAPHQL.err(`Invalid value found for ${describe(path, type.type, parentType)}.`, { path: Array.from(path) }));
      invalid = false;
      hasErrors = !valid;
      return valid ? inputValue : null;
    }
  }
}

/** The replacement of `computeResponse`: same arguments, same answer. */
export function computeResponse({ operation, variables: given, input, introspectionHandling }: ShapingInput): { data: unknown; errors: GraphQLError[] } {
  if (!input) return { data: input, errors: [] };
  const plan = planOf(operation);
  const saved = [schema, variables, errors, introspect] as const;
  schema = operation.schema();
  variables = plan.defaults ? { ...plan.defaults, ...given } : (given ?? {});
  errors = [];
  introspect = introspectionHandling;
  try {
    const data = newObject();
    const bubble = apply(input, plan.steps, data, [], plan.root);
    return { data: bubble ? null : data, errors };
  } finally {
    [schema, variables, errors, introspect] = saved;
  }
}

interface OperationsModule { operationFromDocument(schema: LibSchema, document: DocumentNode, options?: { validate?: boolean; operationName?: string }): LibOperation }
const builtOperations = new WeakMap<DefinitionNode, { schema: LibSchema; fragments: readonly DefinitionNode[]; operation: LibOperation }>();

/** `operationFromDocument` that keeps what it built for the gateway's execution (no validation, one operation first). */
function keepBuiltOperations(build: OperationsModule["operationFromDocument"]): OperationsModule["operationFromDocument"] {
  return function operationFromDocument(schema, document, options) {
    const [first, ...fragments] = document.definitions;
    if (options?.validate !== false || options.operationName !== undefined || first?.kind !== Kind.OPERATION_DEFINITION) return build(schema, document, options);
    const kept = builtOperations.get(first);
    if (kept && kept.schema === schema && kept.fragments.length === fragments.length && kept.fragments.every((f, i) => f === fragments[i])) return kept.operation;
    const operation = build(schema, document, options);
    builtOperations.set(first, { schema, fragments, operation });
    return operation;
  };
}

let installed = false;
/** The library's own functions, once replaced: the test compares both on the same inputs. */
export const libraryShaping: { computeResponse?: typeof computeResponse; operationFromDocument?: OperationsModule["operationFromDocument"] } = {};

/**
 * Puts the compiled shaping in place of `@apollo/gateway`'s, once per process; only once
 * internals.ts's check has passed (seams.ts).
 */
export function installResultShaping(): void {
  if (installed) return;
  const { federationInternals, operations, resultShaping } = apolloModules();
  const internals = federationInternals as unknown as FederationInternals;
  lib = {
    isSubtype: internals.isSubtype,
    isCompositeType: internals.isCompositeType,
    isCustomScalarType: internals.isCustomScalarType,
    Variable: internals.Variable,
    ERRORS: internals.ERRORS,
    assert: internals.assert,
  };
  const library = operations as unknown as OperationsModule;
  const shaping = resultShaping as unknown as { computeResponse: typeof computeResponse };
  libraryShaping.computeResponse = shaping.computeResponse;
  libraryShaping.operationFromDocument = library.operationFromDocument;
  library.operationFromDocument = keepBuiltOperations(library.operationFromDocument);
  shaping.computeResponse = computeResponse;
  installed = true;
}
