import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { postGraphQL } from "../helpers/stack.js";

/** `runSubgraphMain` as a real process: `node --import tsx probe-main.ts`, as `npm run subgraph:<name>` does. */

const MAIN = fileURLToPath(new URL("./probe-main.ts", import.meta.url));

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(env: Record<string, string>): { child: ChildProcess; exited: Promise<Exited>; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<Exited>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, exited, output: () => stdout };
}

async function until<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const logLines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("runSubgraphMain", () => {
  let directory: RunningDirectory;
  let upstreamEnv: Record<string, string>;
  beforeAll(async () => {
    directory = await startDirectory({ employees: 10 });
    upstreamEnv = {
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
    };
  });
  afterAll(() => directory.close());

  it("serves the subgraph on the port of its variable, logs where, and stops cleanly on SIGTERM", async () => {
    const { child, exited, output } = run({ ...upstreamEnv, PROBE_PORT: "0" });
    const listening = await until(() => logLines(output()).find((l) => l.msg === "listening"));
    expect(listening).toMatchObject({ level: "info", component: "probe", upstream: directory.url, auth: "service" });
    const url = String(listening.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect((await fetch(new URL("/health", url))).status).toBe(200);
    const id = directory.company.employees[0]!.id;
    expect((await postGraphQL(url, `query($id: ID!) { employee(id: $id) { id } }`, { id })).data).toEqual({ employee: { id } });
    child.kill("SIGTERM");
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(logLines(stdout).map((l) => l.msg)).toContain("shutting down");
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
      results = await Promise.all(cases.map(([env]) => run({ ...upstreamEnv, ...env }).exited));
    });

    it.each(cases.map(([env, variable], i) => [variable, env, i] as const))("%s", (variable, _, i) => {
      const { code, stderr } = results[i]!;
      expect(code).toBe(2);
      expect(stderr).toContain(`probe: configuration error: ${variable}`);
      expect(stderr).not.toContain("demo-secret");
    });
  });

  it("a port already in use exits with status 1 and says so", async () => {
    const { code, stderr } = await run({ ...upstreamEnv, PROBE_PORT: String(directory.port) }).exited;
    expect(code).toBe(1);
    expect(logLines(stderr)).toContainEqual(expect.objectContaining({ level: "error", msg: "cannot start", port: directory.port, error: expect.stringContaining("EADDRINUSE") }));
  });
});
