import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Mutation, Query, Resolver, Root, createUnionType } from "type-graphql";
import {
  PageArgs,
  RestFilter,
  LocalDateTimeScalar,
  Translation,
  renamedFrom,
  arrayConnection,
  audited,
  givenFields,
  connectionType,
  cursorScope,
  translate,
  translations,
  type ConnectionResult,
  type SubgraphContext,
  ref,
  InvalidInputError,
  invalidInput,
  readRenamed,
  WRITE_REFUSALS,
  mutationResultType,
  type WriteRefusal,
} from "../../shared/graphql/index.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { AXIS_SECTIONS_PATH, axisSectionLoader, axisSectionsList } from "../loaders.js";
import { assertCaller, assertLegacyWriteAllowed } from "../visibility.js";
import { putAxisSection, fieldsNamedIn, notFound, serialisedWrite, writeLegacy } from "../writes.js";
import { sectionNames, type RestAxisSection, type RestAxisSectionFlat } from "../rest.js";
import { AxisSection, AxisSectionFilter, AxisSectionInput } from "./axis-section.js";

export const AxisSectionConnection = connectionType("AxisSection", AxisSection);

export const UpdateAxisSectionResult = createUnionType({
  name: "UpdateAxisSectionResult",
  description: "The updated axis section, or why nothing was written.",
  types: () => [AxisSection, ...WRITE_REFUSALS] as const,
  resolveType: mutationResultType("AxisSection"),
});

@ArgsType()
class AxisSectionsArgs extends PageArgs {
  @Field(() => AxisSectionFilter, { nullable: true })
  filter?: AxisSectionFilter | null;
}

/** REST field names (as the legacy API's messages use them) -> input field names. */
const INPUT_NAME: Readonly<Record<string, string>> = {
  code: "code",
  multilingualName: "names",
  axisId: "axisId",
  description: "description",
  ownerId: "ownerId",
  endOn: "endsAt",
  active: "isActive",
  isPublic: "isPublic",
  parentAxisSections: "parentId",
  "Parent axis section": "parentId",
  parent: "parentId",
};

@ArgsType()
class UpdateAxisSectionArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => AxisSectionInput)
  input!: AxisSectionInput;
}

@Resolver(() => AxisSection)
export class AxisSectionResolver {
  @Query(() => AxisSection, { nullable: true, description: "An axis section by id; null when there is none." })
  async axisSection(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestAxisSection | null> {
    await assertCaller(ctx);
    return isLegacyId(id) ? axisSectionLoader(ctx).load(id) : null;
  }

  @Query(() => AxisSectionConnection, { nullable: true, description: "Axis sections by id and axis, ordered by id." })
  async axisSections(@Args(() => AxisSectionsArgs) args: AxisSectionsArgs, @Ctx() ctx: SubgraphContext): Promise<ConnectionResult<RestAxisSection>> {
    const { ids, axisIds } = args.filter ?? {};
    const binding = { signer: ctx.upstream.cursors, scope: cursorScope(AXIS_SECTIONS_PATH, { id: ids ?? undefined, axisId: axisIds ?? undefined }) };
    // an empty list, or ids that cannot be legacy ids, match nothing
    const filter = new RestFilter()
      .strings("id", "ids", ids, { allowEmpty: true, keep: isLegacyId })
      .integers("axisId", "axisIds", axisIds, 1, { allowEmpty: true });
    if (filter.matchesNothing) return arrayConnection<RestAxisSection>([], args, binding);
    await assertCaller(ctx);
    const sections = await axisSectionsList(ctx, filter.query);
    return arrayConnection(sections, args, binding);
  }

  @FieldResolver(() => String, { description: "The name in `lang` (e.g. fr-FR), else the invariant name." })
  name(@Root() section: RestAxisSectionFlat, @Arg("lang", () => String, { nullable: true }) lang: string | null): string {
    return translate(invariantName(section), { name: sectionNames(section) }, "name", lang);
  }

  // the name before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md);
  // the method has another name than the field: AxisSection's property already has the old one
  @FieldResolver(() => Boolean, { description: "Whether time may be booked on the section: an entry with an inactive section cannot change (rule 6)." })
  isActive(@Root() section: RestAxisSectionFlat): boolean {
    return section.active;
  }

  @FieldResolver(() => LocalDateTimeScalar, { name: "endOn", nullable: true, ...renamedFrom("endsAt", "as every date-time is `…At`.") })
  endOnAlias(@Root() section: RestAxisSectionFlat): string | null {
    return section.endOn;
  }

  @FieldResolver(() => [Translation], { description: "The name in every language it has (legacy `multilingualName`)." })
  nameTranslations(@Root() section: RestAxisSectionFlat): Translation[] {
    return translations({ name: sectionNames(section) }, "name");
  }

  @FieldResolver(() => Employee, { nullable: true })
  owner(@Root() section: RestAxisSectionFlat): EmployeeRef | null {
    return ref(section.ownerId);
  }

  @FieldResolver(() => AxisSection, { nullable: true, description: "The section this one hangs under (in the parent axis)." })
  async parent(@Root() section: RestAxisSection, @Ctx() ctx: SubgraphContext): Promise<RestAxisSectionFlat | null> {
    return (await related(ctx, section, "parentAxisSections"))[0] ?? null;
  }

  @FieldResolver(() => [AxisSection], { nullable: true, description: "The sections this one hangs under (legacy `parentAxisSections`; at most one)." })
  parents(@Root() section: RestAxisSection, @Ctx() ctx: SubgraphContext): Promise<RestAxisSectionFlat[]> {
    return related(ctx, section, "parentAxisSections");
  }

  @FieldResolver(() => [AxisSection], { nullable: true, description: "The sections that hang under this one." })
  children(@Root() section: RestAxisSection, @Ctx() ctx: SubgraphContext): Promise<RestAxisSectionFlat[]> {
    return related(ctx, section, "childrenAxisSections");
  }

  @Mutation(() => UpdateAxisSectionResult, {
    nullable: true,
    description:
      "Changes the given fields of an axis section: the section is read, merged with the input and written whole. Every refusal " +
      "is returned as data and nothing is written: the input (InvalidInputError), a section that does not exist " +
      "(NotFoundError), a caller who may not write it (ForbiddenError), another write of the same section in progress (ConflictError).",
  })
  async updateAxisSection(
    @Args(() => UpdateAxisSectionArgs) { id, input }: UpdateAxisSectionArgs,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestAxisSection | InvalidInputError | WriteRefusal> {
    return audited(ctx, { operation: "updateAxisSection", type: "AxisSection", id, fields: givenFields(input) }, async () => {
      assertLegacyWriteAllowed(ctx);
      const invalid = checkInput(input);
      if (invalid) return invalid;
      await assertCaller(ctx);
      if (!isLegacyId(id)) throw notFound("Axis section", id);
      const loader = axisSectionLoader(ctx);
      return serialisedWrite(ctx, AXIS_SECTIONS_PATH, id, loader, async () => {
        const current = await loader.load(id);
        if (!current) throw notFound("Axis section", id);
        return writeLegacy<RestAxisSection, InvalidInputError>({
          what: "Axis section",
          id,
          loader,
          put: () => putAxisSection(ctx, id, merge(current, input)),
          refused: (_err, message) => invalidInput(message, fieldsNamedIn(message, INPUT_NAME)),
        });
      });
    });
  }
}

export function invariantName(section: RestAxisSectionFlat): string {
  const names = sectionNames(section);
  return section.name ?? names["en-US"] ?? Object.values(names)[0] ?? section.code;
}

/**
 * Parents or children of a section. A section read whole carries them; one nested in another's
 * parents or children does not, and is read again (batched with the others of its level).
 */
async function related(
  ctx: SubgraphContext,
  section: RestAxisSection,
  edge: "parentAxisSections" | "childrenAxisSections",
): Promise<RestAxisSectionFlat[]> {
  const known = section[edge];
  if (known) return known;
  const whole = await axisSectionLoader(ctx).load(String(section.id));
  return whole?.[edge] ?? [];
}

/** The input's deprecated names and the ones they became. */
const RENAMED_INPUTS = [
  ["endOn", "endsAt"],
  ["active", "isActive"],
] as const;

function checkInput(input: AxisSectionInput): InvalidInputError | null {
  const given = Object.entries(input).filter(([, value]) => value !== undefined);
  if (given.length === 0) return invalidInput("The input changes nothing: give at least one field.", []);
  const nulls = (["code", "names", "axisId", "isActive", "active", "isPublic"] as const).filter((name) => input[name] === null);
  if (nulls.length > 0) return invalidInput(`${nulls.join(", ")} cannot be null: leave a field out to keep its value.`, [...nulls]);
  if (input.names && input.names.length === 0) return invalidInput("names needs at least one translation.", ["names"]);
  if (input.names && new Set(input.names.map((n) => n.language)).size !== input.names.length) {
    return invalidInput("names lists a language twice.", ["names"]);
  }
  const renamed = readRenamed(input, RENAMED_INPUTS);
  if ("conflict" in renamed) return invalidInput(`${renamed.conflict.message}.`, renamed.conflict.names);
  if (typeof input.ownerId === "string" && !isLegacyId(input.ownerId)) return invalidInput(`ownerId ${JSON.stringify(input.ownerId.slice(0, 40))} is not an employee id.`, ["ownerId"]);
  if (typeof input.parentId === "string" && !isLegacyId(input.parentId)) return invalidInput(`parentId ${JSON.stringify(input.parentId.slice(0, 40))} is not an axis section id.`, ["parentId"]);
  return null;
}

/** The whole section to PUT, in the legacy body shape (read-only `name` and children left out). */
function merge(current: RestAxisSection, given: AxisSectionInput): Record<string, unknown> {
  // endOn (before 0.1.0) and active (before issue 35) as endsAt and isActive; checkInput refused both given
  const read = readRenamed(given, RENAMED_INPUTS);
  const input = "input" in read ? read.input : given;
  const endsAt = input.endsAt;
  const parentId = input.parentId === undefined ? (current.parentAxisSections?.[0]?.id ?? null) : input.parentId === null ? null : Number(input.parentId);
  return {
    code: input.code ?? current.code,
    multilingualName: input.names ? Object.fromEntries(input.names.map((n) => [n.language, n.text])) : sectionNames(current),
    axisId: input.axisId ?? current.axisId,
    description: input.description === undefined ? current.description : input.description,
    ownerId: input.ownerId === undefined ? current.ownerId : input.ownerId === null ? null : Number(input.ownerId),
    endOn: endsAt === undefined ? current.endOn : endsAt,
    active: input.isActive ?? current.active,
    isPublic: input.isPublic ?? current.isPublic,
    parentAxisSections: parentId === null ? [] : [{ id: parentId }],
  };
}
