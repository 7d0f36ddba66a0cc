/**
 * The upstream calls and round trips of each operation of operations/ (and the benchmark's large
 * list), pinned exactly: one table for every test that counts them (test/gateway/operations.test.ts,
 * test/gateway/rounds.test.ts) and for the documented figures (test/readme.test.ts checks the
 * README's tour table and docs/security.md's call range against it), so that a regression of one call fails.
 * `why`: what keeps an operation above its floor (bench/floors.ts).
 */
export interface Budget {
  calls: number;
  rounds: number;
  why?: string;
}

export const BUDGETS: Readonly<Record<string, Budget>> = {
  // people's page (positions embedded) beside organisation's departments and establishments,
  // announced by the gateway (speculate.ts) and read in the operation's loaders (operation-scope.ts)
  DirectorySearch: { calls: 3, rounds: 1 },
  // people (the employee and everything its id names; then the manager) beside organisation's
  // reference lists (announced); legacy-time's contract beside the manager, after the part of the
  // people fetch it needs (the root fetch split, speculate.ts)
  EmployeeProfile: { calls: 13, rounds: 2 },
  // organisation (the department and its parent, one page) beside people (members with their
  // positions embedded: its fetch starts with the root fetch) and organisation's establishments
  // (announced, legal entities embedded), then the managers (the department's among them: the
  // two people fetches share the operation's loaders)
  OrgChart: { calls: 4, rounds: 2 },
  // one legacy-time fetch (its employee(id:)): the employee beside the time entries (its prefetch), then the entries' sections
  Timesheet: { calls: 3, rounds: 2 },
  UpdateTimeEntry: { calls: 2, rounds: 2 },
  // the page (positions embedded) beside the departments and establishments (announced), then the managers
  LargeList: { calls: 4, rounds: 2 },
};
