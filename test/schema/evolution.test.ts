import { readFile } from "node:fs/promises";
import { buildASTSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, parse, print, visit } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { composeCommittedSubgraphs } from "../../gateway/compose.js";
import { CONTRACT_TAGS } from "../../subgraphs/shared/graphql/tags.js";
import { apiSchema, contractVariant } from "./contracts.js";
import { breakingChanges, recordedBreakingChanges, releasedVersionOf, unrecorded } from "./evolution.js";

/**
 * The schema evolves without breaking clients unannounced: the composed supergraph (and each
 * contract variant) against the last released one, by @graphql-inspector/core; a breaking change
 * CHANGELOG.md does not record fails. A deliberate breaking change shows that the check catches one.
 */

const ROOT = new URL("../../", import.meta.url);
let releasedSdl: string;
let composedSdl: string;
let recorded: Set<string>;
let version: string;

beforeAll(async () => {
  releasedSdl = await readFile(new URL("schema/released/supergraph.graphql", ROOT), "utf8");
  composedSdl = (await composeCommittedSubgraphs()).supergraphSdl;
  const releasedVersion = releasedVersionOf(releasedSdl);
  recorded = recordedBreakingChanges(await readFile(new URL("CHANGELOG.md", ROOT), "utf8"), releasedVersion);
  version = (JSON.parse(await readFile(new URL("package.json", ROOT), "utf8")) as { version: string }).version;
});

describe("schema evolution", () => {
  it("the package's version is the released one or a later one, and the changelog has a section for it", async () => {
    const [a, b] = [version, releasedVersionOf(releasedSdl)].map((v) => v.split(".").map(Number));
    expect(a![0]! * 1e6 + a![1]! * 1e3 + a![2]!).toBeGreaterThanOrEqual(b![0]! * 1e6 + b![1]! * 1e3 + b![2]!);
    const changelog = await readFile(new URL("CHANGELOG.md", ROOT), "utf8");
    expect(changelog).toMatch(new RegExp(`^## \\[(Unreleased|${version.replace(/\./g, "\\.")})\\]`, "m"));
  });

  it("the composed supergraph has no breaking change against the released one that CHANGELOG.md does not record", async () => {
    const changes = await breakingChanges(apiSchema(releasedSdl), apiSchema(composedSdl));
    expect(unrecorded(changes, recorded)).toEqual([]);
  });

  it.each(CONTRACT_TAGS.map((tag) => [tag]))("the contract variant without %s: no unrecorded breaking change either", async (tag) => {
    const changes = await breakingChanges(contractVariant(apiSchema(releasedSdl), [tag]), contractVariant(apiSchema(composedSdl), [tag]));
    expect(unrecorded(changes, recorded)).toEqual([]);
  });

  it("every deprecated field, input field and enum value names, in its reason, the one of the same type to use instead", () => {
    // the supergraph itself: the API schema keeps no directive but @tag
    const api = buildASTSchema(parse(composedSdl), { assumeValidSDL: true });
    const deprecated: string[] = [];
    for (const type of Object.values(api.getTypeMap())) {
      const elements: Record<string, { deprecationReason?: string | null | undefined }> | null =
        isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)
          ? type.getFields()
          : isEnumType(type)
            ? Object.fromEntries(type.getValues().map((v) => [v.name, v]))
            : null;
      if (!elements) continue;
      for (const [name, element] of Object.entries(elements)) {
        // a field's deprecated arguments, by the same rule among its arguments
        const args = "args" in element ? (element.args as Array<{ name: string; deprecationReason?: string | null }>) : [];
        for (const arg of args.filter((a) => a.deprecationReason)) {
          deprecated.push(`${type.name}.${name}(${arg.name})`);
          const named = /^Use `(\w+)`/.exec(arg.deprecationReason!)?.[1];
          expect(named && named !== arg.name && args.some((a) => a.name === named), `${type.name}.${name}(${arg.name}): ${arg.deprecationReason}`).toBeTruthy();
        }
        if (!element.deprecationReason) continue;
        deprecated.push(`${type.name}.${name}`);
        const named = /^Use `(\w+)`/.exec(element.deprecationReason)?.[1];
        expect(named && named !== name && elements[named], `${type.name}.${name}: ${element.deprecationReason}`).toBeTruthy();
      }
    }
    // the renames of 0.1.0 that GraphQL can express, then issue 35's (one name each, and the ids
    // an edge replaces): CHANGELOG.md, [Unreleased]
    expect(deprecated.sort()).toEqual(
      [
        "AxisSection.active",
        "AxisSectionInput.active",
        "LegacyDepartment.head",
        // no faithful source since the legacy departments' sunset (September 2026): remoteId, the closest
        "LegacyDepartment.code",
        "LegacyEstablishment.legalUnitId",
        "LegacyEstablishmentAddress.city",
        "LegacyEstablishmentAddress.zipCode",
        "LegacyUser.modifiedAt",
        "LegacyUser.socioProfessionalCategoryId",
        "TimeEntry.modifiedAt",
        "TimeEntry.modifier",
        "TimeEntryValidationError.rule",
        "WorkContract.lastModifiedAt",
        "WorkContract.socioProfessionalCategoryId",
        "WorkContract.typeId",
        "WorkContract.hiringTypeId",
        "WorkContract.terminationReasonId",
        "WorkContract.temporaryContractGroundId",
        "AxisSection.endOn",
        "AxisSectionInput.endOn",
        "Employee.legacyProfile",
        "Employment.endDate",
        "Employment.startDate",
        "EmploymentFilter.endDate",
        "EmploymentFilter.endDateBetween",
        "EmploymentFilter.startDate",
        "EmploymentFilter.startDateBetween",
        "EmploymentSort.END_DATE_ASC",
        "EmploymentSort.END_DATE_DESC",
        "EmploymentSort.START_DATE_ASC",
        "EmploymentSort.START_DATE_DESC",
        // the upstream's addresses, now the facade's file links (docs/security.md#file-links)
        "FileReference.url",
        "LegacyPicture.href",
        "Portrait.url",
        "LegacyWorkCycle.endsOn",
        "LegacyWorkCycle.startsOn",
        "WorkContract.trialPeriodEndDate",
        "WorkContract.trialPeriodEndDate2",
        // issue 35's leftovers: LegacyUser's names as Employee's, and a filter on lastUpdatedAt named after it
        "LegacyUser.firstName",
        "LegacyUser.lastName",
        "LegacyUser.mail",
        "LegacyUserInput.firstName",
        "LegacyUserInput.lastName",
        "LegacyUserInput.mail",
        "LegacyUserFilter.mail",
        "LegacyUserFilter.mailContains",
        "LegacyUserFilter.modifiedSince",
        "EmployeeTimeEntryFilter.modifiedSince",
        "TimeEntryFilter.modifiedSince",
        "Employee.timeEntries(modifiedSince)",
      ].sort(),
    );
  });

  it("catches a deliberate breaking change (Employee.givenName removed), and lets it pass once the changelog records it", async () => {
    const broken = print(
      visit(parse(composedSdl), {
        FieldDefinition(node, _key, _parent, _path, ancestors) {
          const type = ancestors[ancestors.length - 1] as { name?: { value: string } };
          if (type?.name?.value === "Employee" && node.name.value === "givenName") return null;
          return undefined;
        },
      }),
    );
    const changes = await breakingChanges(apiSchema(releasedSdl), apiSchema(broken));
    expect(unrecorded(changes, recorded)).toEqual(["Employee.givenName: Field 'givenName' was removed from object type 'Employee'"]);
    // recorded under ### Breaking of the unreleased section, it passes
    const changelog = `## [Unreleased]\n\n### Breaking\n\n- \`Employee.givenName\`: removed\n\n## [0.1.0]\n`;
    expect(unrecorded(changes, recordedBreakingChanges(changelog, "0.1.0"))).toEqual([]);
    // recorded under the released version's own section, it does not
    const late = `## [Unreleased]\n\n## [0.1.0]\n\n### Breaking\n\n- \`Employee.givenName\`: removed\n`;
    expect(unrecorded(changes, recordedBreakingChanges(late, "0.1.0"))).toHaveLength(1);
  });
});
