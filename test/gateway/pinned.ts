/**
 * The upstream calls and dependent round trips of each operation of operations/ (and the
 * benchmark's large list) through the gateway: what test/gateway/rounds.test.ts asserts, and the
 * one place the README's figures come from (test/readme.test.ts checks the tour table and the call
 * budget's range against it).
 */

/** `why`: what keeps an operation above its floor */
export const PINNED: Record<string, { calls: number; rounds: number; why?: string }> = {
  DirectorySearch: { calls: 4, rounds: 3 },
  // people (the employee and everything its id names; then the manager), then organisation and legacy-time
  EmployeeProfile: { calls: 13, rounds: 3, why: "rounds: organisation and legacy-time wait for the people fetch, whose manager read waits for the job positions" },
  // organisation (the department and its parent, one page) beside people (members, positions,
  // managers: its fetch starts with the root fetch, gateway/speculate.ts), then organisation
  // (establishments and legal entities, together)
  OrgChart: { calls: 7, rounds: 4, why: "calls: the department's manager is a people fetch of its own, after the department, apart from the positions' managers" },
  // the employee beside legacy-time's time entries (speculate.ts), then the entries' sections
  Timesheet: { calls: 3, rounds: 2 },
  UpdateTimeEntry: { calls: 2, rounds: 2 },
  LargeList: { calls: 6, rounds: 4 },
};

