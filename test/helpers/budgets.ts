/**
 * The upstream calls and round trips of each operation of operations/ (and the benchmark's large
 * list), pinned exactly: one table for every test that counts them (test/gateway/operations.test.ts,
 * test/gateway/rounds.test.ts) and for the README's figures (test/readme.test.ts checks the tour
 * table and the call range against it), so that a regression of one call fails.
 * `why`: what keeps an operation above its floor (bench/floors.ts).
 */
export interface Budget {
  calls: number;
  rounds: number;
  why?: string;
}

export const BUDGETS: Readonly<Record<string, Budget>> = {
  DirectorySearch: { calls: 4, rounds: 3 },
  // people (the employee and everything its id names; then the manager), then organisation and legacy-time
  EmployeeProfile: {
    calls: 13,
    rounds: 3,
    why: "rounds: organisation and legacy-time wait for the people fetch, whose manager read waits for the job positions",
  },
  // organisation (the department and its parent, one page) beside people (members, positions,
  // managers: its fetch starts with the root fetch, gateway/speculate.ts), then organisation
  // (establishments and legal entities, together)
  OrgChart: { calls: 7, rounds: 4, why: "calls: the department's manager is a people fetch of its own, after the department, apart from the positions' managers" },
  // the employee beside legacy-time's time entries (speculate.ts), then the entries' sections
  Timesheet: { calls: 3, rounds: 2 },
  UpdateTimeEntry: { calls: 2, rounds: 2 },
  LargeList: { calls: 6, rounds: 4 },
};
