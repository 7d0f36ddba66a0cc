/**
 * What a perfect planner needs, worked out by hand from the REST interface (docs/interface.md):
 * the fewest upstream calls, and the fewest dependent round trips when each hop may only use ids
 * the previous hops returned, with the two shortcuts the interface offers
 * (docs/performance.md#batching-rules):
 * - `include=embedded`: an employee list embeds each employee's applicable job position and
 *   employment, a job position its department, job qualification and employment, an establishment
 *   its legal entity, an attribute its definition and taxonomy labels: read with their parent,
 *   they cost neither a call nor a round of their own;
 * - a reference list read whole needs no id (departments, establishments, legal entities,
 *   templates, job qualifications, occupation categories while they fit a page of 100): it starts
 *   in the first round, whatever names the ids; an argument is known at once.
 * A reference read by id waits for the answer that names the id.
 *
 * 300 employees, the demo's variables. Each line is one round; each call is one upstream call.
 */

export interface Floor {
  calls: number;
  rounds: number;
  /** the calls, round by round */
  reasoning: string[];
}

export const FLOORS: Record<string, Floor> = {
  DirectorySearch: {
    calls: 3,
    rounds: 1,
    reasoning: [
      "1: GET /employees?search&status=active&sort=familyName&limit=20&include=totalCount,embedded (the page, each applicable job position",
      "   embedded: its title, department and establishment refs); GET /departments and GET /business-establishments (whole, one page",
      "   each: no id needed) — 3 calls in 1 round",
    ],
  },
  EmployeeProfile: {
    calls: 13,
    rounds: 2,
    reasoning: [
      "1, from the argument: GET /employees?id=X; GET /employees?applicableJobPosition.manager.id=X&limit=25&include=totalCount (direct reports);",
      "   GET /employments?employee.id=X (every employment, the applicable one among them); GET /job-positions?employment.employee.id=X",
      "   (every position, the applicable one among them: the manager's id); GET /employee-attributes?employee.id=X&include=embedded;",
      "   GET /probationary-periods?employment.employee.id=X; legacy GET /work-contracts?ownerId=X (a contract has its employment's id);",
      "   and, needing no id: GET /legal-entities, /employment-templates, /departments, /job-qualifications, /occupation-categories (whole,",
      "   one page each: one call, as the single reads of the ids named would be)",
      "2, from an id of round 1: GET /employees?id=<manager> — 12 + 1 = 13 calls in 2 rounds",
    ],
  },
  OrgChart: {
    calls: 4,
    rounds: 2,
    reasoning: [
      "1, from the argument: GET /departments (whole, one page: the department with its level, parent and manager refs, and its parent);",
      "   GET /employees?applicableJobPosition.department.id=X&limit=50&include=totalCount,embedded (the members, each applicable job",
      "   position embedded: title, start, manager and establishment refs); GET /business-establishments?include=embedded (whole, one",
      "   page, each establishment's legal entity embedded: no id needed)",
      "2: GET /employees?id=<the positions' managers and the department's manager> (one call) — 4 calls in 2 rounds",
    ],
  },
  Timesheet: {
    calls: 3,
    rounds: 2,
    reasoning: [
      "1, from the arguments: GET /employees?id=X and legacy GET /timeentries?ownerId=X&date range",
      "2: legacy GET /axisSections?id=<the entries' sections> (with their parents' id and code; the legacy list is paged by",
      "   offset, so reading it whole would cost more calls than the round) — 3 calls in 2 rounds",
    ],
  },
  UpdateTimeEntry: {
    calls: 2,
    rounds: 2,
    reasoning: [
      "1: legacy GET /timeentries/X (a PUT replaces the whole entry: the fields not given are read first)",
      "2: legacy PUT /timeentries/X — 2 calls in 2 rounds",
    ],
  },
  LargeList: {
    calls: 4,
    rounds: 2,
    reasoning: [
      "1: GET /employees?limit=100&include=embedded (the page, each applicable job position embedded: title, manager, department and",
      "   establishment refs); GET /departments and GET /business-establishments?include=embedded (whole while one page, the legal",
      "   entities embedded; at 100 000 employees the fewer of single reads of the ids named and pages of the whole list)",
      "2: GET /employees?id=<the managers> — 4 calls in 2 rounds at 300 employees",
    ],
  },
};

/** The large list: a page of 100 employees with what a directory table shows of each. */
export const LARGE_LIST = `query LargeList {
  employees(first: 100) {
    nodes {
      id givenName familyName
      applicableJobPosition {
        jobTitle
        manager { id givenName familyName }
        department { id name }
        businessEstablishment { id name legalEntity { id legalName } }
      }
    }
  }
}`;
