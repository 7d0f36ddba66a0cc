/**
 * The upstream calls and round trips of each operation of operations/ (and the benchmark's large
 * list), pinned exactly: one table for every test that counts them (test/gateway/operations.test.ts,
 * test/gateway/rounds.test.ts) and for the documented figures (test/readme.test.ts checks the
 * README's tour table and docs/security.md's call range against it), so that a regression of one call fails.
 * `why`: what keeps an operation above its floor (bench/floors.ts).
 */
export interface Budget {
  /** with reference data and legacy time data read afresh (DIRECTORY_REFERENCE_FRESH_S=0, DIRECTORY_LEGACY_TIME_FRESH_S=0, or past the bounds) */
  calls: number;
  rounds: number;
  /** with the settings as shipped, reference data and legacy time data held (reference-cache.ts), under our gateway and Hive Gateway's Rust planner alike */
  held: { calls: number; rounds: number };
  why?: string;
}

export const BUDGETS: Readonly<Record<string, Budget>> = {
  // people's page (positions embedded), then organisation's departments and establishments for
  // its references: the plan's entity fetch waits for the page (held: the page alone)
  DirectorySearch: { calls: 3, rounds: 2, held: { calls: 1, rounds: 1 }, why: "organisation's fetch needs the page's references: a round unless reference data is held" },
  // people (the employee and everything its id names; then the manager), legacy-time's contract
  // beside the manager, then organisation's reference lists (held: none of them, nor the legacy
  // contract or the probationary periods)
  EmployeeProfile: { calls: 13, rounds: 3, held: { calls: 6, rounds: 2 }, why: "organisation's fetch waits for people's: a round unless reference data is held" },
  // organisation's department (one page), then people's members (positions embedded) beside the
  // department's manager, then the positions' managers, then organisation's establishments
  // (held: the department and the establishments from memory)
  OrgChart: { calls: 5, rounds: 4, held: { calls: 3, rounds: 2 }, why: "the plan runs its fetches one after another and the two people fetches read employees apart; reference data held saves the first and the last" },
  // one legacy-time fetch (its employee(id:)): the employee beside the time entries (its prefetch), then the entries' sections
  // (held: the entries and sections from memory, DIRECTORY_LEGACY_TIME_FRESH_S)
  Timesheet: { calls: 3, rounds: 2, held: { calls: 1, rounds: 1 } },
  UpdateTimeEntry: { calls: 2, rounds: 2, held: { calls: 2, rounds: 2 } },
  // the page (positions embedded), then the managers, then the departments and establishments (held: none of them)
  LargeList: { calls: 4, rounds: 3, held: { calls: 2, rounds: 2 }, why: "organisation's fetch waits for people's: a round unless reference data is held" },
};
