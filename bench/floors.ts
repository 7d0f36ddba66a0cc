/**
 * What a perfect planner needs, worked out by hand from the REST interface (docs/interface.md):
 * the fewest upstream calls, and the fewest dependent round trips when each hop may only use ids
 * the previous hops returned (an argument is known at once; a reference read by id waits for the
 * answer that names the id; reference lists without an `id` filter are read whole, one call while
 * they fit one page of 100, or by single reads when fewer ids than pages are needed).
 *
 * 300 employees, the demo's variables. Each line is one upstream call.
 */

export interface Floor {
  calls: number;
  rounds: number;
  /** the calls, round by round */
  reasoning: string[];
}

export const FLOORS: Record<string, Floor> = {
  DirectorySearch: {
    calls: 4,
    rounds: 3,
    reasoning: [
      "1: GET /employees?search&status=active&sort=familyName&limit=20&include=totalCount (the page, its job position refs)",
      "2: GET /job-positions?id=<the page's applicable job positions> (title, department and establishment refs)",
      "3: GET /departments and GET /business-establishments together (no id filter: each read whole, one page)",
    ],
  },
  EmployeeProfile: {
    calls: 13,
    rounds: 2,
    reasoning: [
      "1, all from the argument: GET /employees?id=X; GET /employees?applicableJobPosition.manager.id=X&limit=25&include=totalCount (direct reports);",
      "   GET /employments?employee.id=X (every employment, the applicable one among them); GET /job-positions?employment.employee.id=X",
      "   (every position, the applicable one among them: the manager's id); GET /employee-attributes?employee.id=X&include=embedded;",
      "   GET /probationary-periods?employment.employee.id=X; legacy GET /work-contracts?ownerId=X (a contract has its employment's id)",
      "2, from ids of round 1: GET /employees?id=<manager>; GET /legal-entities/<id>; GET /employment-templates (no single read: whole);",
      "   GET /departments, GET /job-qualifications (whole), GET /occupation-categories/<id> — 7 + 6 = 13 calls in 2 rounds",
    ],
  },
  OrgChart: {
    calls: 6,
    rounds: 4,
    reasoning: [
      "1, from the argument: GET /departments (whole, one page: the department with its level, parent and manager refs, and its parent —",
      "   two ids of a one-page list, so the page is cheaper than two single reads) and",
      "   GET /employees?applicableJobPosition.department.id=X&limit=50&include=totalCount (the members)",
      "2: GET /job-positions?id=<the members' applicable positions>",
      "3: GET /employees?id=<the positions' managers and the department's manager> (one call); GET /business-establishments (whole)",
      "4: GET /legal-entities (whole) — 6 calls in 4 rounds",
    ],
  },
  Timesheet: {
    calls: 3,
    rounds: 2,
    reasoning: [
      "1, from the arguments: GET /employees?id=X and legacy GET /timeentries?ownerId=X&date range",
      "2: legacy GET /axisSections?id=<the entries' sections> (with their parents' id and code) — 3 calls in 2 rounds",
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
    calls: 6,
    rounds: 4,
    reasoning: [
      "1: GET /employees?limit=100 (the page, its job position refs)",
      "2: GET /job-positions?id=<100 ids>",
      "3: GET /employees?id=<the managers>; GET /departments and GET /business-establishments (whole while one page;",
      "   at 100 000 employees the fewer of single reads of the ids named and pages of the whole list)",
      "4: GET /legal-entities (whole) — 6 calls in 4 rounds at 300 employees",
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
