import type { SubgraphModule } from "../shared/graphql/index.js";
import { buildFederatedSchema } from "../shared/graphql/index.js";
import { currentApiId, legacyApiId } from "../../platform/input-checks.js";
import { axisSectionReference } from "./axis-section/axis-section.reference.js";
import { AxisSectionResolver } from "./axis-section/axis-section.resolver.js";
import { businessEstablishmentReference } from "./business-establishment/business-establishment.reference.js";
import { BusinessEstablishmentResolver, LegacyEstablishmentAddressResolver, LegacyEstablishmentResolver } from "./business-establishment/business-establishment.resolver.js";
import { departmentReference } from "./department/department.reference.js";
import { DepartmentResolver, LegacyDepartmentResolver } from "./department/department.resolver.js";
import { employeeReference } from "./employee/employee.reference.js";
import { EmployeeResolver } from "./employee/employee.resolver.js";
import { legacyTimeFieldRules } from "./field-rules.js";
import { employmentReference } from "./employment/employment.reference.js";
import { employmentTemplateReference } from "./employment-template/employment-template.reference.js";
import { legalEntityReference } from "./legal-entity/legal-entity.reference.js";
import { occupationCategoryReference } from "./occupation-category/occupation-category.reference.js";
import { LegacyUserResolver } from "./legacy-user/legacy-user.resolver.js";
import { LegacyUsersResolver } from "./legacy-user/legacy-users.resolver.js";
import { timeEntryReference } from "./time-entry/time-entry.reference.js";
import { TimeEntryResolver } from "./time-entry/time-entry.resolver.js";
import { workContractReference } from "./work-contract/work-contract.reference.js";
import { WorkContractResolver } from "./work-contract/work-contract.resolver.js";

/**
 * The legacy-time subgraph: the whole legacy API (users, departments, work contracts,
 * establishments, time entries, axis sections). It owns WorkContract, TimeEntry and AxisSection
 * and contributes legacy fields to Employee, Department and BusinessEstablishment;
 * it shares people's `employee(id:)` and the employee's names, so that an operation reading only
 * those and legacy data of one employee is one fetch of this subgraph.
 */
export const subgraph: SubgraphModule = {
  name: "legacy-time",
  portVariable: "LEGACY_TIME_PORT",
  defaultPort: 4003,
  // its arguments name legacy records: integers
  ids: legacyApiId,
  // but `employee(id:)` is people's, shared: an employee's id of the current API, refused as people's refuses it
  idsByField: { "Query.employee": currentApiId },
  fieldRules: legacyTimeFieldRules,
  buildSchema: (naming) =>
    buildFederatedSchema({
      ...naming,
      resolvers: [
        EmployeeResolver,
        DepartmentResolver,
        LegacyDepartmentResolver,
        BusinessEstablishmentResolver,
        LegacyEstablishmentResolver,
        LegacyEstablishmentAddressResolver,
        LegacyUserResolver,
        LegacyUsersResolver,
        WorkContractResolver,
        TimeEntryResolver,
        AxisSectionResolver,
      ],
      referenceResolvers: {
        Employee: employeeReference,
        Employment: employmentReference,
        Department: departmentReference,
        BusinessEstablishment: businessEstablishmentReference,
        WorkContract: workContractReference,
        TimeEntry: timeEntryReference,
        AxisSection: axisSectionReference,
        EmploymentTemplate: employmentTemplateReference,
        LegalEntity: legalEntityReference,
        OccupationCategory: occupationCategoryReference,
      },
    }),
};
