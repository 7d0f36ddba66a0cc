/**
 * The operations of `operations/` as a frontend writes them against the generated peer's schema
 * (bench/mesh/compose.ts): each is a few GraphQL requests in sequence, the next one built from the
 * ids the previous answers name, because the generated schema cannot follow a reference. Every
 * list that needs no id is read in the first request (departments, establishments, templates,
 * qualifications: whole, one page), and references are read from `include=embedded` where the
 * directory embeds them, so each operation needs as few requests as the REST interface allows.
 * Timesheet and UpdateTimeEntry use the legacy API, which the OpenAPI document does not describe:
 * the peer has no counterpart for them.
 */

export interface PeerRequest {
  query: string;
  variables: Record<string, unknown>;
}

export interface PeerOperation {
  /** the requests in order: each gets the operation's variables and the answers so far */
  requests: Array<(variables: Record<string, any>, answers: any[]) => PeerRequest>;
}

const PROBLEM = "... on Problem { problemStatus: status title detail }";
const ids = (values: Array<string | null | undefined>) => [...new Set(values.filter((v): v is string => !!v))].join(",");
/** the embedded representations of a type in a page's `embedded` */
const embedded = (page: any, type: string): Record<string, any> => page?.embedded?.[type] ?? {};

const MANAGERS = `query Managers($ids: String!) {
  managers: listEmployees(id: $ids, limit: 100) { ... on EmployeesPage { items { id givenName familyName } } ${PROBLEM} }
}`;

export const PEER_OPERATIONS: Record<string, PeerOperation> = {
  // 1 request: the page with its job positions embedded, and the two lists the positions name
  DirectorySearch: {
    requests: [
      (v) => ({
        query: `query DirectorySearch($search: String!, $page: String) {
  employees: listEmployees(search: $search, status: "active", sort: "familyName", limit: 20, page: $page, include: [totalCount, links, embedded]) {
    ... on EmployeesPage { totalCount links { next { href } } items { id givenName familyName email applicableJobPosition { id } } embedded }
    ${PROBLEM}
  }
  departments: listDepartments(limit: 100) { ... on DepartmentsPage { items { id name } } ${PROBLEM} }
  establishments: listBusinessEstablishments(limit: 100) { ... on BusinessEstablishmentsPage { items { id name } } ${PROBLEM} }
}`,
        variables: { search: v.search, page: v.after ?? null },
      }),
    ],
  },
  // 2 requests: everything the employee's id names and the lists read whole, then the manager and the legal entity
  EmployeeProfile: {
    requests: [
      (v) => ({
        query: `query EmployeeProfile($id: NonEmptyString!, $employee: String!) {
  employee: getEmployee(id: $id) {
    ... on Employee { id givenName familyName email status birthDay { day month } applicableEmployment { id } applicableJobPosition { id } }
    ${PROBLEM}
  }
  reports: listEmployees(applicableJobPosition_manager_id: $employee, limit: 25, include: [totalCount]) {
    ... on EmployeesPage { totalCount items { id givenName familyName } } ${PROBLEM}
  }
  employments: listEmployments(employee_id: $employee, limit: 100) {
    ... on EmploymentsPage { items { id start { date } end { date } status legalEntity { id } template { id } } } ${PROBLEM}
  }
  positions: listJobPositions(employment_employee_id: $employee, limit: 100) {
    ... on JobPositionsPage { items { id employment { id } startsOn endsOn jobTitle updatedAttributes manager { id } department { id } jobQualification { id } occupationCategory { id } } }
    ${PROBLEM}
  }
  attributes: listEmployeeAttributes(employee_id: $employee, limit: 100, include: [embedded]) {
    ... on EmployeeAttributesPage { items { id definition { id } value applicability { start end } } embedded } ${PROBLEM}
  }
  probation: listProbationaryPeriods(employment_employee_id: $employee, limit: 100) {
    ... on ProbationaryPeriodsPage { items { id employment { id } startsOn endsOn initialEndsOn extendedEndsOn } } ${PROBLEM}
  }
  templates: listEmploymentTemplates(limit: 100) { ... on EmploymentTemplatesPage { items { id title term } } ${PROBLEM} }
  departments: listDepartments(limit: 100) { ... on DepartmentsPage { items { id name } } ${PROBLEM} }
  qualifications: listJobQualifications(limit: 100) { ... on JobQualificationsPage { items { id title rank } } ${PROBLEM} }
  categories: listOccupationCategories(limit: 100) { ... on OccupationCategoriesPage { items { id title } } ${PROBLEM} }
}`,
        variables: { id: v.id, employee: v.id },
      }),
      (_v, [first]) => {
        const employee = first.employee;
        const applicable = first.positions.items.find((p: any) => p.id === employee.applicableJobPosition?.id);
        const employment = first.employments.items.find((e: any) => e.id === employee.applicableEmployment?.id);
        return {
          query: `query EmployeeProfileRefs($manager: String!, $hasManager: Boolean!, $legalEntity: NonEmptyString!, $hasLegalEntity: Boolean!) {
  manager: listEmployees(id: $manager, limit: 1) @include(if: $hasManager) { ... on EmployeesPage { items { id givenName familyName } } ${PROBLEM} }
  legalEntity: getLegalEntity(id: $legalEntity) @include(if: $hasLegalEntity) { ... on LegalEntity { legalName currencyCode } ${PROBLEM} }
}`,
          variables: {
            manager: applicable?.manager?.id ?? "0",
            hasManager: !!applicable?.manager,
            legalEntity: employment?.legalEntity?.id ?? "0",
            hasLegalEntity: !!employment?.legalEntity,
          },
        };
      },
    ],
  },
  // 2 requests: the departments, the members with their positions embedded and the establishments
  // with their legal entities embedded; then the managers the positions and the department name
  OrgChart: {
    requests: [
      (v) => ({
        query: `query OrgChart($department: String!) {
  departments: listDepartments(limit: 100) { ... on DepartmentsPage { items { id name level parent { id } manager { id } } } ${PROBLEM} }
  members: listEmployees(applicableJobPosition_department_id: $department, limit: 50, include: [totalCount, links, embedded]) {
    ... on EmployeesPage { totalCount links { next { href } } items { id givenName familyName status applicableJobPosition { id } } embedded }
    ${PROBLEM}
  }
  establishments: listBusinessEstablishments(limit: 100, include: [embedded]) {
    ... on BusinessEstablishmentsPage { items { id name timezoneId legalEntity { id } } embedded } ${PROBLEM}
  }
}`,
        variables: { department: v.departmentId },
      }),
      (v, [first]) => {
        const department = first.departments.items.find((d: any) => d.id === v.departmentId);
        const positions = Object.values(embedded(first.members, "job-position"));
        return { query: MANAGERS, variables: { ids: ids([department?.manager?.id, ...positions.map((p: any) => p.manager?.id)]) || "0" } };
      },
    ],
  },
  // 2 requests: the page with its positions embedded, departments and establishments (legal
  // entities embedded); then the managers
  LargeList: {
    requests: [
      () => ({
        query: `query LargeList {
  employees: listEmployees(limit: 100, include: [embedded]) { ... on EmployeesPage { items { id givenName familyName applicableJobPosition { id } } embedded } ${PROBLEM} }
  departments: listDepartments(limit: 100) { ... on DepartmentsPage { items { id name } } ${PROBLEM} }
  establishments: listBusinessEstablishments(limit: 100, include: [embedded]) { ... on BusinessEstablishmentsPage { items { id name legalEntity { id } } embedded } ${PROBLEM} }
}`,
        variables: {},
      }),
      (_v, [first]) => ({ query: MANAGERS, variables: { ids: ids(Object.values(embedded(first.employees, "job-position")).map((p: any) => p.manager?.id)) || "0" } }),
    ],
  },
};
