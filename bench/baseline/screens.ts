import type { DemoPicks } from "../../test/helpers/operations.js";
import type { RestClient } from "./rest-client.js";

/**
 * The baseline of the benchmark: each screen of `operations/` fetched the way a REST client
 * without the facade has to fetch it. The client follows the references of the REST interface
 * one request at a time, in the order the screen needs them (list the employees, then for each
 * employee its job position, then that position's department...). It uses `include=embedded`
 * only where the interface offers no other source (attribute definitions), lists a collection
 * that has no single read once per screen (employment templates, job qualifications), and
 * reads nothing the screen does not show.
 *
 * Each screen answers a summary of what it shows (ids, names, counts), which the benchmark
 * compares with the same summary of the facade's answer: both must show the same screen.
 */

export type Summary = Record<string, unknown>;

export interface Screen {
  /** what the screen already holds before the measured interaction (not counted) */
  prepare?(client: RestClient, variables: Record<string, any>, demo: DemoPicks): Promise<unknown>;
  run(client: RestClient, variables: Record<string, any>, prepared: unknown): Promise<Summary>;
  /** the same summary of the facade's `data` */
  summarise(data: any): Summary;
}

type Ref = { id: string } | null;

const DirectorySearch: Screen = {
  async run(client, { search }) {
    const page = await client.current("/employees", { search, status: "active", sort: "familyName", limit: 20, include: "totalCount" });
    const rows = [];
    for (const employee of page.items) {
      const position = await client.current(`/job-positions/${employee.applicableJobPosition.id}`);
      const department = await client.current(`/departments/${position.department.id}`);
      const establishment = await client.current(`/business-establishments/${position.businessEstablishment.id}`);
      rows.push({ id: employee.id, jobTitle: position.jobTitle, department: department.name, establishment: establishment.name });
    }
    return { totalCount: page.totalCount, hasNextPage: page.links.next !== null, rows };
  },
  summarise: ({ employees }) => ({
    totalCount: employees.totalCount,
    hasNextPage: employees.pageInfo.hasNextPage,
    rows: employees.edges.map(({ node }: any) => ({
      id: node.id,
      jobTitle: node.applicableJobPosition?.jobTitle,
      department: node.applicableJobPosition?.department?.name,
      establishment: node.applicableJobPosition?.businessEstablishment?.name,
    })),
  }),
};

const EmployeeProfile: Screen = {
  async run(client, { id }) {
    const employee = await client.current(`/employees/${id}`);
    const position = employee.applicableJobPosition ? await client.current(`/job-positions/${employee.applicableJobPosition.id}`) : null;
    const manager = position?.manager ? await client.current(`/employees/${position.manager.id}`) : null;
    const reports = await client.current("/employees", { "applicableJobPosition.manager.id": id, limit: 25, include: "totalCount" });

    let applicable: Summary | null = null;
    if (employee.applicableEmployment) {
      const employment = await client.current(`/employments/${employee.applicableEmployment.id}`);
      const legalEntity = employment.legalEntity ? await client.current(`/legal-entities/${employment.legalEntity.id}`) : null;
      // employment templates have no single read: the screen lists them
      const templates = await client.all("/employment-templates");
      const template = templates.find((t) => t.id === employment.template.id);
      const probation = await client.current("/probationary-periods", { "employment.id": employment.id });
      const contract = await client.legacy(`/directory/api/4.0/work-contracts/${employment.id}`);
      applicable = {
        id: employment.id,
        legalName: legalEntity?.legalName ?? null,
        template: template?.title ?? null,
        probation: probation.items.map((p: any) => p.initialEndsOn),
        workContract: String(contract.id),
      };
    }

    const employments = await client.current("/employments", { "employee.id": id, limit: 10 });
    // job qualifications have no single read either
    let qualifications: Map<string, any> | null = null;
    const career = [];
    for (const employment of employments.items) {
      const positions = await client.current("/job-positions", { "employment.id": employment.id, limit: 20 });
      for (const p of positions.items) {
        const department = await client.current(`/departments/${p.department.id}`);
        qualifications ??= new Map((await client.all("/job-qualifications")).map((q) => [q.id, q]));
        const category = await client.current(`/occupation-categories/${p.occupationCategory.id}`);
        career.push({
          employment: employment.id,
          jobTitle: p.jobTitle,
          department: department.name,
          qualification: qualifications.get(p.jobQualification.id)?.title ?? null,
          category: category.title,
        });
      }
    }
    // attribute definitions exist only embedded in the attribute list
    const attributes = await client.all("/employee-attributes", { "employee.id": id, include: "embedded" });
    return {
      id: employee.id,
      manager: manager?.id ?? null,
      reports: { totalCount: reports.totalCount, ids: reports.items.map((e: any) => e.id) },
      applicable,
      career,
      attributes: attributes.map((a) => a.definition.id).sort(),
    };
  },
  summarise: ({ employee }) => ({
    id: employee.id,
    manager: employee.manager?.id ?? null,
    reports: { totalCount: employee.directReports.totalCount, ids: employee.directReports.nodes.map((e: any) => e.id) },
    applicable: employee.applicableEmployment && {
      id: employee.applicableEmployment.id,
      legalName: employee.applicableEmployment.legalEntity?.legalName ?? null,
      template: employee.applicableEmployment.template?.title ?? null,
      probation: employee.applicableEmployment.probationaryPeriods.map((p: any) => p.initialEndsOn),
      workContract: employee.applicableEmployment.workContract?.id ?? null,
    },
    career: employee.employments.nodes.flatMap((employment: any) =>
      employment.jobPositions.nodes.map((p: any) => ({
        employment: employment.id,
        jobTitle: p.jobTitle,
        department: p.department?.name,
        qualification: p.jobQualification?.title ?? null,
        category: p.occupationCategory?.title,
      })),
    ),
    attributes: employee.attributes.map((a: any) => a.definition.id).sort(),
  }),
};

const OrgChart: Screen = {
  async run(client, { departmentId }) {
    const department = await client.current(`/departments/${departmentId}`);
    const parent = department.parent ? await client.current(`/departments/${department.parent.id}`) : null;
    const manager = department.manager ? await client.current(`/employees/${department.manager.id}`) : null;
    const members = await client.current("/employees", { "applicableJobPosition.department.id": departmentId, limit: 50, include: "totalCount" });
    const rows = [];
    for (const employee of members.items) {
      const position = employee.applicableJobPosition ? await client.current(`/job-positions/${employee.applicableJobPosition.id}`) : null;
      const positionManager: Ref = position?.manager ? await client.current(`/employees/${position.manager.id}`) : null;
      const establishment = position ? await client.current(`/business-establishments/${position.businessEstablishment.id}`) : null;
      const legalEntity = establishment ? await client.current(`/legal-entities/${establishment.legalEntity.id}`) : null;
      rows.push({
        id: employee.id,
        manager: positionManager?.id ?? null,
        establishment: establishment?.name ?? null,
        legalName: legalEntity?.legalName ?? null,
      });
    }
    return {
      name: department.name,
      parent: parent?.name ?? null,
      manager: manager?.id ?? null,
      totalCount: members.totalCount,
      rows,
    };
  },
  summarise: ({ department }) => ({
    name: department.name,
    parent: department.parent?.name ?? null,
    manager: department.manager?.id ?? null,
    totalCount: department.employees.totalCount,
    rows: department.employees.nodes.map((e: any) => ({
      id: e.id,
      manager: e.applicableJobPosition?.manager?.id ?? null,
      establishment: e.applicableJobPosition?.businessEstablishment?.name ?? null,
      legalName: e.applicableJobPosition?.businessEstablishment?.legalEntity?.legalName ?? null,
    })),
  }),
};

const Timesheet: Screen = {
  async run(client, { id, from, to }) {
    const employee = await client.current(`/employees/${id}`);
    const entries = await client.legacy("/api/v3/timeentries", { ownerId: id, startsAt: `between,${from},${to}`, layer: "notequal,1", paging: "0,1000" });
    const rows = [];
    for (const entry of entries.data.items) {
      const ids = (entry.axisSections ?? []).map((s: { id: number }) => s.id);
      const sections = ids.length > 0 ? (await client.legacy("/api/v3/axisSections", { id: ids.join(",") })).data.items : [];
      rows.push({ id: String(entry.id), sections: sections.map((s: any) => s.code) });
    }
    return { id: employee.id, rows };
  },
  summarise: ({ employee }) => ({
    id: employee.id,
    rows: employee.timeEntries.map((e: any) => ({ id: e.id, sections: e.axisSections.map((s: any) => s.code) })),
  }),
};

const UpdateTimeEntry: Screen = {
  /** the entry as the timesheet screen shows it: the REST client sends it back whole */
  async prepare(client, { id }, demo) {
    const entry = demo.openEntry.id === id ? demo.openEntry : demo.approvedEntry;
    const entries = await client.legacy("/api/v3/timeentries", { ownerId: entry.ownerId, startsAt: `between,${entry.date},${entry.date}` });
    const found = entries.data.items.find((e: any) => String(e.id) === id);
    if (!found) throw new Error(`time entry ${id} not found in the legacy list`);
    return found;
  },
  async run(client, { id, input }, entry: any) {
    const body = {
      ownerId: entry.ownerId,
      unit: entry.unit,
      startsAt: entry.startsAt,
      duration: input.duration,
      creationSource: entry.creationSource,
      axisSections: entry.axisSections,
      comment: entry.comment === null ? null : { content: entry.comment.content },
      timeTypeId: entry.timeTypeId,
    };
    const { status, body: answer } = await client.legacyPut(`/api/v3/timeentries/${id}`, body);
    return status === 200 ? { typename: "TimeEntry", id: String(answer.data.id) } : { typename: "TimeEntryValidationError", rule: answer.rule };
  },
  summarise: ({ updateTimeEntry }) =>
    updateTimeEntry.__typename === "TimeEntry"
      ? { typename: "TimeEntry", id: updateTimeEntry.id }
      : { typename: updateTimeEntry.__typename, rule: updateTimeEntry.rule },
};

export const screens: Record<string, Screen> = { DirectorySearch, EmployeeProfile, OrgChart, Timesheet, UpdateTimeEntry };
