import { workContractReference } from "./work-contract/work-contract.reference.js";
import type { SubgraphModule } from "../shared/graphql/index.js";
import { buildFederatedSchema, edgeFieldChecks } from "../shared/graphql/index.js";
import { unusedPubSub, ChangeSubscriptions, EmployeeChangeResolver, EmploymentChangeResolver, JobPositionChangeResolver } from "./changes/changes.js";
import { BusinessEstablishmentResolver } from "./business-establishment/business-establishment.resolver.js";
import { businessEstablishmentReference } from "./business-establishment/business-establishment.reference.js";
import { DepartmentResolver } from "./department/department.resolver.js";
import { departmentReference } from "./department/department.reference.js";
import { EmployeeAttributeDefinitionResolver, EmployeeAttributeResolver } from "./employee-attribute/employee-attribute.resolver.js";
import { employeeAttributeReference } from "./employee-attribute/employee-attribute.reference.js";
import { EmployeePersonalRecordResolver } from "./employee-personal-record/employee-personal-record.resolver.js";
import { employeePersonalRecordReference } from "./employee-personal-record/employee-personal-record.reference.js";
import { EmployeeResolver } from "./employee/employee.resolver.js";
import { PortraitResolver } from "./employee/portrait.js";
import { FileReferenceResolver } from "./employee/file-reference.js";
import { employeeReference } from "./employee/employee.reference.js";
import { EmploymentTemplateResolver } from "./employment-template/employment-template.resolver.js";
import { employmentTemplateReference } from "./employment-template/employment-template.reference.js";
import { EmploymentResolver } from "./employment/employment.resolver.js";
import { employmentReference } from "./employment/employment.reference.js";
import { JobPositionResolver } from "./job-position/job-position.resolver.js";
import { JobQualificationResolver } from "./job-qualification/job-qualification.resolver.js";
import { OccupationCategoryResolver } from "./occupation-category/occupation-category.resolver.js";
import { jobQualificationReference } from "./job-qualification/job-qualification.reference.js";
import { occupationCategoryReference } from "./occupation-category/occupation-category.reference.js";
import * as edges from "./edges.js";
import { jobPositionReference } from "./job-position/job-position.reference.js";
import { LegalEntityResolver } from "./legal-entity/legal-entity.resolver.js";
import { legalEntityReference } from "./legal-entity/legal-entity.reference.js";
import { ProbationaryPeriodResolver } from "./probationary-period/probationary-period.resolver.js";
import { probationaryPeriodReference } from "./probationary-period/probationary-period.reference.js";

/**
 * The people subgraph: employees, employments, job positions, employee attributes, personal
 * records and probationary periods of the current API, plus the employees and employments it
 * contributes to the organisation subgraph's departments, establishments, legal entities and
 * employment templates.
 */
export const subgraph: SubgraphModule = {
  name: "people",
  portVariable: "PEOPLE_PORT",
  defaultPort: 4001,
  // the directory's events are taken in here, once per deployment (docs/deploying.md#directory-events)
  ingestsEvents: true,
  // the filters of its edges, declared with them
  ...edgeFieldChecks(Object.values(edges)),
  buildSchema: (naming) =>
    buildFederatedSchema({
      ...naming,
      nodeOwner: true,
      pubSub: unusedPubSub,
      resolvers: [
        EmployeeResolver,
        PortraitResolver,
        FileReferenceResolver,
        EmploymentResolver,
        JobPositionResolver,
        EmployeeAttributeResolver,
        EmployeeAttributeDefinitionResolver,
        EmployeePersonalRecordResolver,
        ProbationaryPeriodResolver,
        DepartmentResolver,
        BusinessEstablishmentResolver,
        LegalEntityResolver,
        EmploymentTemplateResolver,
        JobQualificationResolver,
        OccupationCategoryResolver,
        ChangeSubscriptions,
        EmployeeChangeResolver,
        EmploymentChangeResolver,
        JobPositionChangeResolver,
      ],
      referenceResolvers: {
        Employee: employeeReference,
        Employment: employmentReference,
        JobPosition: jobPositionReference,
        EmployeeAttribute: employeeAttributeReference,
        EmployeePersonalRecord: employeePersonalRecordReference,
        ProbationaryPeriod: probationaryPeriodReference,
        Department: departmentReference,
        BusinessEstablishment: businessEstablishmentReference,
        LegalEntity: legalEntityReference,
        EmploymentTemplate: employmentTemplateReference,
        JobQualification: jobQualificationReference,
        OccupationCategory: occupationCategoryReference,
        WorkContract: workContractReference,
      },
    }),
};
