import { afterAll, describe, expect, it } from "vitest";
import { killAll, runToExit } from "../helpers/process.js";

/**
 * A company's day at a smaller scale (`npm run bench:day`, bench/day.ts): `npm start` as it comes,
 * the in-process directory at the production service's limits (50 requests in any 60 s for the
 * tenant), two frontend users reading the queries of `operations/` for 40 s, a time entry
 * corrected twice and read back at once, a department renamed twice at the directory and read
 * until the new name shows. Every operation is answered, every write reads back at once, every
 * rename shows, and the directory never counted more than 50 requests in a minute. What the script
 * prints is checked, not how long anything took.
 */

afterAll(killAll);

interface Day {
  operations: number;
  answeredWithoutError: number;
  errors: Record<string, number>;
  busiest60s: number;
  requestsByMinute: number[];
  writes: number;
  writesReadBackAtOnce: number;
  changes: number;
}

describe("a company's day under npm start, at production's limits", () => {
  it("two users for 40 s: every operation answered, writes read back at once, renames shown, at most 50 requests a minute", async () => {
    const { exit, stdout, stderr } = await runToExit("bench/day.ts", { BENCH_DAY_USERS: "2", BENCH_DAY_SECONDS: "40", BENCH_DAY_WRITE_S: "15", BENCH_DAY_CHANGE_S: "15" });
    expect(exit.code, stderr).toBe(0);
    const line = /^bench-day (.+)$/m.exec(stdout);
    expect(line, stdout).not.toBeNull();
    const day = JSON.parse(line![1]!) as Day;
    expect(day.operations).toBeGreaterThan(0);
    expect({ answered: day.answeredWithoutError, errors: day.errors }).toEqual({ answered: day.operations, errors: {} });
    expect(day.writes).toBeGreaterThanOrEqual(1);
    expect(day.writesReadBackAtOnce).toBe(day.writes);
    expect(day.changes).toBeGreaterThanOrEqual(1);
    expect(day.busiest60s).toBeLessThanOrEqual(50);
    for (const requests of day.requestsByMinute) expect(requests).toBeLessThanOrEqual(50);
  });
});
