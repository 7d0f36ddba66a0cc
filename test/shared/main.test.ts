import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, logLines, runScript, runToExit, type ScriptProcess } from "../helpers/process.js";
import { postGraphQL, useDirectory } from "../helpers/stack.js";

/** `runSubgraphMain` as a real process: `node scripts/run.mjs probe-main.ts`, as `npm run subgraph:<name>` does. */

const MAIN = fileURLToPath(new URL("./probe-main.ts", import.meta.url));

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

const run = (env: Record<string, string>): ScriptProcess => runScript(MAIN, { LOG_LEVEL: "info", ...env });

/** Runs until the process exits on its own: its status and its whole output. */
async function exitOf(env: Record<string, string>): Promise<Exited> {
  const { exit, stdout, stderr } = await runToExit(MAIN, { LOG_LEVEL: "info", ...env });
  return { code: exit.code, stdout, stderr };
}

afterAll(killAll);

describe("runSubgraphMain", () => {
  const directory = useDirectory({ employees: 10 });
  let upstreamEnv: Record<string, string>;
  beforeAll(async () => {
    upstreamEnv = {
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_REQUEST_BUDGET: "off",
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
    };
  });

  it("serves the subgraph on the port of its variable, logs where, and stops cleanly on SIGTERM", async () => {
    const child = run({ ...upstreamEnv, PROBE_PORT: "0" });
    await child.waitFor(/"msg":"listening"/);
    const listening = logLines(child.stdout(), "listening")[0]!;
    expect(listening).toMatchObject({ level: "info", component: "probe", upstream: directory.url, auth: "service" });
    const url = String(listening.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect((await fetch(new URL("/health", url))).status).toBe(200);
    const id = directory.company.employees[0]!.id;
    expect((await postGraphQL(url, `query($id: ID!) { employee(id: $id) { id } }`, { id })).data).toEqual({ employee: { id } });
    expect(await child.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    expect(logLines(child.stdout()).map((l) => l.msg)).toContain("shutting down");
  });

  it("leaves no bundle behind: a process that exits while its import runs removes its own, and one a killed process left is swept at the next start", async () => {
    const build = new URL("../../.build/", import.meta.url);
    // the pid of a process that has exited
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.once("exit", resolve));
    const stale = new URL(`probe-main-${gone.pid}.mjs`, build);
    await mkdir(build, { recursive: true });
    await writeFile(stale, "// left by a process killed with SIGKILL\n");
    // a wrong variable: process.exit(2) while the bundle's import runs, past run.mjs's `finally`
    const refused = run({ ...upstreamEnv, PROBE_PORT: "99999" });
    expect((await refused.exited).code).toBe(2);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(new URL(`probe-main-${refused.child.pid}.mjs`, build))).toBe(false);
    // a server stopped by a signal
    const child = run({ ...upstreamEnv, PROBE_PORT: "0" });
    await child.waitFor(/"msg":"listening"/);
    // an answer comes from the event loop, so after the start's last line: its signal handlers
    // are in place (the line itself is written just before them)
    expect((await fetch(new URL("/health", String(logLines(child.stdout(), "listening")[0]!.url)))).status).toBe(200);
    expect(await child.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    expect(existsSync(new URL(`probe-main-${child.child.pid}.mjs`, build))).toBe(false);
  });

  describe("a wrong variable exits with status 2 and names it", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PROBE_PORT: "99999" }, "PROBE_PORT"],
      [{ LOG_LEVEL: "chatty" }, "LOG_LEVEL"],
      [{ DIRECTORY_AUTH: "sometimes", DIRECTORY_CLIENT_SECRET: "" }, "DIRECTORY_AUTH"],
    ];
    // the processes start together: each takes a second or two to load
    let results: Exited[];
    beforeAll(async () => {
      results = await Promise.all(cases.map(([env]) => exitOf({ ...upstreamEnv, ...env })));
    });

    it.each(cases.map(([env, variable], i) => [variable, env, i] as const))("a bad %s exits with status 2, names it and prints no secret", (variable, _, i) => {
      const { code, stderr } = results[i]!;
      expect(code).toBe(2);
      expect(stderr).toContain(`probe: configuration error: ${variable}`);
      expect(stderr).not.toContain("demo-secret");
    });
  });

  it("a port already in use exits with status 1 and says so", async () => {
    const { code, stderr } = await exitOf({ ...upstreamEnv, PROBE_PORT: String(directory.port) });
    expect(code).toBe(1);
    expect(logLines(stderr)).toContainEqual(expect.objectContaining({ level: "error", msg: "cannot start", port: directory.port, error: expect.stringContaining("EADDRINUSE") }));
  });
});
