import { buildASTSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, isIntrospectionType, parse, type GraphQLSchema, type GraphQLNamedType } from "graphql";

/** Federation and join machinery that composition adds: not the facade's to describe. */
const MACHINERY = /^(_|join__|link__|federation__)/;

export interface DescriptionGaps {
  types: string[];
  fields: string[];
  arguments: string[];
  enumValues: string[];
  /** how many of each were examined */
  counts: { types: number; fields: number; arguments: number; enumValues: number };
}

const described = (d: string | null | undefined) => typeof d === "string" && d.trim().length > 0;

/** Every type, field, argument and enum value of the schema without a description. */
export function descriptionGaps(schema: GraphQLSchema): DescriptionGaps {
  const gaps: DescriptionGaps = { types: [], fields: [], arguments: [], enumValues: [], counts: { types: 0, fields: 0, arguments: 0, enumValues: 0 } };
  const own = (t: GraphQLNamedType) => !MACHINERY.test(t.name) && !isIntrospectionType(t) && !isSpecifiedScalarType(t);
  for (const type of Object.values(schema.getTypeMap()).filter(own)) {
    const root = type === schema.getQueryType() || type === schema.getMutationType() || type === schema.getSubscriptionType();
    if (!root) {
      gaps.counts.types++;
      if (!described(type.description)) gaps.types.push(type.name);
    }
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (MACHINERY.test(field.name)) continue;
        gaps.counts.fields++;
        if (!described(field.description)) gaps.fields.push(`${type.name}.${field.name}`);
        for (const arg of "args" in field ? field.args : []) {
          gaps.counts.arguments++;
          if (!described(arg.description)) gaps.arguments.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        gaps.counts.enumValues++;
        if (!described(value.description)) gaps.enumValues.push(`${type.name}.${value.name}`);
      }
    }
  }
  return gaps;
}

/** The same for an SDL text (a subgraph's `_service.sdl` or the supergraph). */
export function descriptionGapsOfSdl(sdl: string): DescriptionGaps {
  return descriptionGaps(buildASTSchema(parse(sdl), { assumeValidSDL: true }));
}
