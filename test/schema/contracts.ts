import { MapperKind, mapSchema, pruneSchema } from "@graphql-tools/utils";
import {
  buildASTSchema,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  Kind,
  parse,
  print,
  validateSchema,
  visit,
  type GraphQLSchema,
} from "graphql";

/**
 * A contract variant of the supergraph, built as GraphOS contracts build one: the API schema
 * (the supergraph without its join/link machinery), minus every type, field, argument and enum
 * value that carries an excluded `@tag`, minus what became empty or unreachable from the roots.
 */

const MACHINERY = /^(join__|link__)/;

/** The supergraph's API schema, its `@tag`s kept on the elements. */
export function apiSchema(supergraphSdl: string): GraphQLSchema {
  const document = visit(parse(supergraphSdl), {
    SchemaDefinition: () => null,
    SchemaExtension: () => null,
    DirectiveDefinition: (node) => (node.name.value === "tag" ? undefined : null),
    Directive: (node) => (node.name.value === "tag" ? undefined : null),
    ScalarTypeDefinition: (node) => (MACHINERY.test(node.name.value) ? null : undefined),
    EnumTypeDefinition: (node) => (MACHINERY.test(node.name.value) ? null : undefined),
  });
  const hasTagDefinition = document.definitions.some((d) => d.kind === Kind.DIRECTIVE_DEFINITION && d.name.value === "tag");
  const tag = hasTagDefinition
    ? ""
    : "directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION\n";
  return buildASTSchema(parse(tag + print(document)), { assumeValidSDL: true });
}


function tagsOf(node: { astNode?: { directives?: readonly any[] } | null } | undefined): string[] {
  return (node?.astNode?.directives ?? [])
    .filter((d) => d.name.value === "tag")
    .map((d) => d.arguments?.find((a: any) => a.name.value === "name")?.value?.value as string);
}

const excluded = (node: any, exclude: ReadonlySet<string>) => tagsOf(node).some((t) => exclude.has(t));

/** The contract variant of the API schema without the elements tagged with one of `exclude`; throws if it is not a valid schema. */
export function contractVariant(api: GraphQLSchema, exclude: readonly string[]): GraphQLSchema {
  const tags = new Set(exclude);
  const filtered = mapSchema(api, {
    [MapperKind.TYPE]: (type) => (excluded(type, tags) ? null : type),
    [MapperKind.COMPOSITE_FIELD]: (field) => (excluded(field, tags) ? null : field),
    [MapperKind.INPUT_OBJECT_FIELD]: (field) => (excluded(field, tags) ? null : field),
    [MapperKind.ARGUMENT]: (arg) => (excluded(arg, tags) ? null : arg),
    [MapperKind.ENUM_VALUE]: (value) => (excluded(value, tags) ? null : value),
  });
  const variant = pruneSchema(filtered);
  const errors = validateSchema(variant);
  if (errors.length) throw new Error(`invalid contract variant without ${exclude.join(", ")}:\n${errors.map((e) => e.message).join("\n")}`);
  return variant;
}

/** `Type.field` of every object, interface and input field of the schema's own types. */
export function fieldsOf(schema: GraphQLSchema): Set<string> {
  const fields = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) fields.add(`${type.name}.${field.name}`);
    }
  }
  return fields;
}

/** `Type.field` of every field carrying `tag`. */
export function fieldsTagged(schema: GraphQLSchema, tag: string): Set<string> {
  const fields = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) if (tagsOf(field).includes(tag)) fields.add(`${type.name}.${field.name}`);
    }
  }
  return fields;
}

/** Names of the schema's own types (no introspection or built-in scalar). */
export function typesOf(schema: GraphQLSchema): Set<string> {
  return new Set(Object.values(schema.getTypeMap()).filter((t) => !isIntrospectionType(t) && !isSpecifiedScalarType(t)).map((t) => t.name));
}
