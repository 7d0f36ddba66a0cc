import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { FormattedIdentifier, listConnection, type SubgraphContext, referenceTo } from "../../shared/graphql/index.js";
import { PageArgs } from "../../shared/graphql/index.js";
import { Employee } from "../employee/employee.js";
import { employeeLoaderFor, personalRecordLoader } from "../loaders.js";
import type { RestEmployeePersonalRecord } from "../rest.js";
import {
  BankAccount,
  EmployeePersonalRecord,
  EmployeePersonalRecordConnection,
  EmployeePersonalRecordFilter,
  LegalGender,
  PersonalTitle,
  personalRecordQuery,
} from "./employee-personal-record.js";

@Resolver(() => EmployeePersonalRecord)
export class EmployeePersonalRecordResolver {
  @Query(() => EmployeePersonalRecord, { nullable: true, description: "One personal record; null when it does not exist or is not visible." })
  employeePersonalRecord(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEmployeePersonalRecord | null> {
    return personalRecordLoader(ctx).load(id);
  }

  @Query(() => EmployeePersonalRecordConnection, { nullable: true, description: "Personal records, a page at a time (the list has no sort)." })
  employeePersonalRecords(
    @Arg("filter", () => EmployeePersonalRecordFilter, { nullable: true }) filter: EmployeePersonalRecordFilter | null,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return listConnection(ctx, info, "/employee-personal-records", personalRecordQuery(filter), page);
  }

  @FieldResolver(() => Employee, { nullable: true })
  employee(@Root() record: RestEmployeePersonalRecord, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(record.employee, info, (id) => employeeLoaderFor(ctx, info).load(id));
  }

  // docs/interface.md#employee-personal-record: `unknown` equals the technical null
  @FieldResolver(() => PersonalTitle)
  title(@Root() record: RestEmployeePersonalRecord): string {
    return record.title ?? PersonalTitle.UNKNOWN;
  }

  @FieldResolver(() => LegalGender)
  legalGender(@Root() record: RestEmployeePersonalRecord): string {
    return record.legalGender ?? LegalGender.UNKNOWN;
  }

  @FieldResolver(() => FormattedIdentifier, { nullable: true, description: "Validation depends on the format (e.g. frenchSSN; other is not validated)." })
  insuranceNumber(@Root() record: RestEmployeePersonalRecord) {
    return record.insuranceNumber ?? null;
  }

  @FieldResolver(() => [String], { description: "ISO 3166-1 alpha-3 codes; at most one." })
  nationalitiesCountryCodes(@Root() record: RestEmployeePersonalRecord): string[] {
    return record.nationalitiesCountryCodes ?? [];
  }

  @FieldResolver(() => BankAccount, { nullable: true })
  bankAccount(@Root() record: RestEmployeePersonalRecord) {
    return record.bankAccount ?? null;
  }
}
