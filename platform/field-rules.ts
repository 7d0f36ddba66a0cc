import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FieldChecks } from "./input-checks.js";
import { badUserInput } from "./user-input.js";

/**
 * Argument rules of particular fields, as data: a few generic kinds, each naming the argument
 * paths it reads (`from`, `filter.ids`) and the words of its message, none a type of the graph.
 * The subgraphs declare which field follows which rule (by schema coordinate, without
 * GRAPH_PREFIX); `npm run schema` writes them all to `schema/field-checks.json`, from which the
 * gateway builds the same checks without loading anything of `subgraphs/` (docs/graph.md#field-rules).
 */

/** an argument, or an input field below one: `from`, `filter.ids` */
const ArgumentPath = Type.String({ pattern: "^[A-Za-z_]\\w*(\\.[A-Za-z_]\\w*)*$" });

export const FieldRuleShape = Type.Union([
  /** the filter field an edge sets itself (the parent's ids): refused in its `filter` argument */
  Type.Object({ rule: Type.Literal("ownFilter"), field: Type.String({ pattern: "^[A-Za-z_]\\w*$" }) }, { additionalProperties: false }),
  /** two values that, when both given, are in order: `from` on or before `to` */
  Type.Object({ rule: Type.Literal("ordered"), from: ArgumentPath, to: ArgumentPath }, { additionalProperties: false }),
  /** a list that names at least one `naming` (the noun of its message) */
  Type.Object({ rule: Type.Literal("nonEmpty"), path: ArgumentPath, naming: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  /** two arguments never given together, `because` says why */
  Type.Object(
    { rule: Type.Literal("exclusive"), paths: Type.Tuple([ArgumentPath, ArgumentPath]), because: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
]);

export type FieldRule = Static<typeof FieldRuleShape>;

/** The rules by schema coordinate (`"Type.field"`, without GRAPH_PREFIX), in the order they are checked. */
export const FieldRulesShape = Type.Record(Type.String({ pattern: "^[A-Za-z_]\\w*\\.[A-Za-z_]\\w*$" }), Type.Array(FieldRuleShape, { minItems: 1 }), {
  additionalProperties: false,
});

export type FieldRules = Static<typeof FieldRulesShape>;

/** Reads a table of rules (`schema/field-checks.json`), refusing one that is not: a process must not start without its checks. */
export function parseFieldRules(value: unknown, source: string): FieldRules {
  if (Value.Check(FieldRulesShape, value)) return value;
  const error = Value.Errors(FieldRulesShape, value).First();
  throw new Error(`${source} is not a table of field rules: ${error ? `${error.path || "/"}: ${error.message}` : "unreadable"}`);
}

/** The message of an edge's own filter given again, the same wherever it is refused. */
export function ownFilterRefusal(filterField: string) {
  const field = `filter.${filterField}`;
  return badUserInput(`${field} cannot be used on this field: it already filters on it`, field);
}

const given = (value: unknown) => value !== undefined && value !== null;

function valueAt(args: object, path: string): unknown {
  let value: unknown = args;
  for (const name of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** Throws BAD_USER_INPUT for the first rule the field's arguments break. */
export function checkFieldRules(rules: readonly FieldRule[], args: object): void {
  for (const rule of rules) {
    switch (rule.rule) {
      case "ownFilter":
        if (given(valueAt(args, `filter.${rule.field}`))) throw ownFilterRefusal(rule.field);
        break;
      case "ordered": {
        const from = valueAt(args, rule.from);
        const to = valueAt(args, rule.to);
        if (typeof from === "string" && typeof to === "string" && from > to) throw badUserInput(`${rule.from} (${from}) must be on or before ${rule.to} (${to})`, rule.from);
        break;
      }
      case "nonEmpty": {
        const list = valueAt(args, rule.path);
        if (!Array.isArray(list) || list.length === 0) throw badUserInput(`${rule.path} must name at least one ${rule.naming}`, rule.path);
        break;
      }
      case "exclusive": {
        const [first, second] = rule.paths;
        if (given(valueAt(args, first)) && given(valueAt(args, second))) throw badUserInput(`${first} and ${second} cannot be given together: ${rule.because}`, first);
        break;
      }
    }
  }
}

/**
 * The rules as field checks (`InputCheckOptions.fields`); `also` adds checks of a process's own,
 * run after the rules of the same field (a subgraph's: the REST query of an edge's filter).
 */
export function fieldRuleChecks(rules: FieldRules, also: FieldChecks = {}): FieldChecks {
  const checks: FieldChecks = { ...also };
  for (const [coordinate, list] of Object.entries(rules)) {
    const own = also[coordinate];
    checks[coordinate] = (args) => {
      checkFieldRules(list, args);
      own?.(args);
    };
  }
  return checks;
}
