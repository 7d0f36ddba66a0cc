import { afterAll, describe, expect, it } from "vitest";
import { startDirectory } from "../../directory/server.js";
import { killAll, runScript, runToExit, type ScriptProcess } from "../helpers/process.js";
import { directoryToken, get } from "./current-helpers.js";

/** `npm run directory` (directory/main.ts) as a user runs it: a process configured by DIRECTORY_* variables. */

const run = (env: Record<string, string>): ScriptProcess => runScript("directory/main.ts", { DIRECTORY_PORT: "0", ...env });

/** Runs until the process exits on its own: its status and what it wrote to stderr. */
async function exitOf(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { exit, stderr } = await runToExit("directory/main.ts", { DIRECTORY_PORT: "0", ...env });
  return { code: exit.code, stderr };
}

afterAll(killAll);

describe("npm run directory", () => {
  it("prints its base URL and the demo credentials, serves both APIs, and stops on SIGTERM", async () => {
    const child = run({ DIRECTORY_EMPLOYEES: "40", DIRECTORY_TODAY: "2026-06-15", DIRECTORY_SEED: "7" });
    await child.waitFor(/admin:/);
    const banner = child.stdout();
    const url = /directory service: (http:\/\/127\.0\.0\.1:\d+) \(40 employees, seed 7, today 2026-06-15\)/.exec(banner)?.[1];
    expect(url).toBeDefined();
    expect(banner).toContain("demo-client / demo-secret");
    expect(banner).toContain("demo-limited / demo-secret");
    expect(banner).toContain("service application=demo-api-key");

    const token = await directoryToken(url!);
    expect((await get(url!, token, "/service-api/employees?limit=0&include=totalCount")).body.totalCount).toBe(40);
    const legacy = await fetch(`${url}/api/v3/users/1`, { headers: { authorization: "service application=demo-api-key" } });
    expect(legacy.status).toBe(200);

    expect(await child.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });

  it.concurrent.each([
    ["DIRECTORY_EMPLOYEES", "abc"],
    ["DIRECTORY_EMPLOYEES", "0"],
    ["DIRECTORY_EMPLOYEES", "1000001"],
    ["DIRECTORY_TODAY", "2026-13-01"],
    ["DIRECTORY_TODAY", "2026-02-30"],
    ["DIRECTORY_SEED", "1e20"],
    ["DIRECTORY_PORT", "99999"],
  ])("%s=%s exits with status 2 and a message naming the variable", async (variable, value) => {
    const { code, stderr } = await exitOf({ [variable]: value });
    expect(code).toBe(2);
    expect(stderr).toContain(`directory: cannot start: ${variable} must be`);
    expect(stderr).toContain(`"${value}"`);
    expect(stderr).not.toContain("    at ");
  });

  it("a port already in use exits with status 2 and says so", async () => {
    const taken = await startDirectory({ limits: { requests: 0 }, employees: 1, today: "2026-06-15" });
    try {
      const { code, stderr } = await exitOf({ DIRECTORY_PORT: String(taken.port), DIRECTORY_EMPLOYEES: "1" });
      expect(code).toBe(2);
      expect(stderr).toContain("EADDRINUSE");
      expect(stderr).not.toContain("    at ");
    } finally {
      await taken.close();
    }
  });
});
