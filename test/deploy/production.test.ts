import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COMPONENTS } from "../../scripts/build.mjs";
import { copyRuntime } from "../../scripts/runtime.mjs";
import * as nft from "@vercel/nft";
import { STARTED_WITHIN_MS, freePorts, killAll, runCommand, type ScriptProcess } from "../helpers/process.js";
import { postGraphQL } from "../helpers/stack.js";
import { startRedis, type RunningRedis } from "../helpers/replicas.js";

/**
 * What the image does, without a container runtime: a clean copy of the project's files, a
 * production-only install (`npm ci --omit=dev`, the Dockerfile's), the bundles built
 * (`node scripts/build.mjs`), the runtime files copied apart (`scripts/runtime.mjs`, the runtime
 * stage's only content: measured here), and every component started from them with the image's
 * commands as the compose file gives them, wired as the compose file wires them (ports on loopback instead of
 * service names; compose's Redis is the machine's redis-server). The gateway answers an operation through them all; each stops on SIGTERM with 0.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
let copy: string;
/** the runtime stage's /app */
let runtime: string;
/** what the runtime stage held before: the whole production node_modules beside the same files */
let sizeBefore: number;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "directory-graph-prod-"));
  runtime = mkdtempSync(join(tmpdir(), "directory-graph-runtime-"));
  // the files git knows of (committed or not, ignored ones left out): what `docker build` gets
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  // asynchronous: a worker blocked for minutes misses vitest's own calls ("Timeout calling onTaskUpdate")
  await run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: copy, timeout: 240_000 });
  await run(process.execPath, ["scripts/build.mjs"], { cwd: copy });
  sizeBefore = ["node_modules", "dist", "schema", "operations", "gateway/explorer", "scripts/healthcheck.mjs", "package.json"].reduce((n, p) => n + bytes(join(copy, p)), 0);
  await copyRuntime(copy, runtime, nft);
}, 400_000);

let redis: RunningRedis | undefined;

afterAll(async () => {
  await killAll();
  await redis?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
  if (runtime) rmSync(runtime, { recursive: true, force: true });
}, 120_000);

/** the bytes of the files under `path` (symbolic links not followed) */
function bytes(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((n, entry) => n + bytes(join(path, entry)), 0);
}

describe("a production-only install", () => {
  it("has no development tool: no vitest, typescript, tsx, yaml or graphql-inspector", () => {
    for (const dev of ["vitest", "typescript", "tsx", "yaml", "@graphql-inspector/core", "graphql-http", "@graphql-hive/gateway-runtime"]) {
      expect(existsSync(join(copy, "node_modules", dev)), dev).toBe(false);
    }
    for (const name of Object.keys(COMPONENTS)) expect(existsSync(join(copy, "dist", `${name}.mjs`)), name).toBe(true);
  });

  it("the runtime files: the bundles and what they load, under 60 MiB; no compiler, no browser package beyond the explorer's files", () => {
    const after = bytes(runtime);
    console.log(`runtime application files: ${(sizeBefore / 2 ** 20).toFixed(1)} MiB with the whole production node_modules, ${(after / 2 ** 20).toFixed(1)} MiB traced (${readdirSync(join(runtime, "node_modules")).length} top-level entries)`);
    expect(after).toBeLessThan(60 * 2 ** 20);
    expect(after).toBeLessThan(sizeBefore / 3);
    for (const name of Object.keys(COMPONENTS)) expect(existsSync(join(runtime, "dist", `${name}.mjs`)), name).toBe(true);
    for (const absent of ["esbuild", "@esbuild", "typescript", "react/cjs"]) expect(existsSync(join(runtime, "node_modules", absent)), absent).toBe(false);
    expect(existsSync(join(runtime, "node_modules", "graphiql", "graphiql.min.js"))).toBe(true);
  });

  it("runs every component with the image's commands (compose's), and they answer an operation together", async () => {
    const compose = parse(readFileSync(join(ROOT, "deploy/compose.yaml"), "utf8"), { merge: true }) as {
      services: Record<string, { command: string[]; environment: Record<string, string> }>;
    };
    const [directoryPort, peoplePort, organisationPort, legacyTimePort, gatewayPort] = (await freePorts(5)).map(String);
    const ports: Record<string, string> = {
      DIRECTORY_PORT: directoryPort!,
      PEOPLE_PORT: peoplePort!,
      ORGANISATION_PORT: organisationPort!,
      LEGACY_TIME_PORT: legacyTimePort!,
      GATEWAY_PORT: gatewayPort!,
    };
    const hosts: Record<string, string> = { directory: directoryPort!, people: peoplePort!, organisation: organisationPort!, "legacy-time": legacyTimePort! };
    const secrets: Record<string, string> = { SUBGRAPH_SECRET: "production-test-subgraph-secret-0123456789", SUBGRAPH_CURSOR_SECRET: "production-test-cursor-secret-0123456789" };
    /** compose's value with its ${VAR:-default} and ${VAR:?message} resolved, and service names replaced by loopback ports */
    const resolve = (value: string) =>
      value
        .replace(/\$\{([A-Z_]+):([-?])([^}]*)\}/g, (_m, name: string, kind: string, fallback: string) => secrets[name] ?? (kind === "-" ? fallback : ""))
        .replace(/http:\/\/([a-z-]+):\d+/g, (m, host: string) => (hosts[host] ? `http://127.0.0.1:${hosts[host]}` : m))
        .replace(/^redis:\/\/redis:6379$/, () => redis!.url);
    redis = await startRedis();
    const started: Record<string, ScriptProcess> = {};
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === "redis") continue;
      const env = Object.fromEntries(Object.entries(service.environment).map(([k, v]) => [k, resolve(String(v))]));
      for (const variable of Object.keys(env)) if (ports[variable]) env[variable] = ports[variable]!;
      // loopback is enough here, and a wildcard would take the port on every interface of the machine
      env.HOST = "127.0.0.1";
      env.SHUTDOWN_GRACE_MS = "0";
      started[name] = runCommand(service.command[0]!, service.command.slice(1), env, runtime);
    }
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}/`;
    await until(async () => (await fetch(`${gatewayUrl}ready`).catch(() => null))?.status === 200, started);
    const answer = await postGraphQL(gatewayUrl, '{ employee(id: "10") { id givenName applicableJobPosition { department { name } } } }');
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.employee.applicableJobPosition.department.name).toEqual(expect.any(String));
    // NODE_ENV=production: no introspection
    expect((await postGraphQL(gatewayUrl, "{ __schema { queryType { name } } }")).errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    // the image's HEALTHCHECK command, from the install
    expect(execFileSync(process.execPath, ["scripts/healthcheck.mjs", `${gatewayUrl}health`], { cwd: runtime }).length).toBe(0);
    const exits = await Promise.all(Object.values(started).map((p) => p.stop("SIGTERM")));
    expect(exits).toEqual(Object.values(started).map(() => ({ code: 0, signal: null })));
    // nothing on stderr but the warnings of trusted documents' production default (`log`) about the
    // two ad-hoc documents this test sent the gateway
    const unlisted = /"msg":"document not in the trusted documents"/;
    for (const [name, p] of Object.entries(started)) {
      const lines = p.stderr().split("\n").filter((line) => line !== "");
      expect(lines.filter((line) => !(name === "gateway" && unlisted.test(line))), name).toEqual([]);
      if (name === "gateway") expect(lines).toHaveLength(2);
    }
  });

  it("runs the image's default command, everything in one process", async () => {
    const [gatewayPort] = await freePorts(1);
    const start = runCommand("node", ["dist/start.mjs"], { GATEWAY_PORT: String(gatewayPort), PEOPLE_PORT: "0", ORGANISATION_PORT: "0", LEGACY_TIME_PORT: "0", DIRECTORY_PORT: "0", SHUTDOWN_GRACE_MS: "0", NODE_ENV: "production", GATEWAY_EXPLORER: "explorer" }, runtime);
    await start.waitFor(/^gateway: /m);
    const answer = await postGraphQL(`http://127.0.0.1:${gatewayPort}/`, '{ employee(id: "10") { id } }');
    expect(answer.data.employee.id).toBe("10");
    // the explorer's vendor files, found through their packages at run time, are there
    const page = await (await fetch(`http://127.0.0.1:${gatewayPort}/explorer`)).text();
    const vendor = [...page.matchAll(/"(\/explorer\/vendor\/[^"]+)"/g)].map((m) => m[1]!);
    expect(vendor.length).toBeGreaterThanOrEqual(4);
    for (const path of vendor) expect((await fetch(`http://127.0.0.1:${gatewayPort}${path}`)).status, path).toBe(200);
    expect(await start.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });

  it("the HEALTHCHECK fails when nothing answers", async () => {
    const [port] = await freePorts(1);
    expect(() => execFileSync(process.execPath, ["scripts/healthcheck.mjs", `http://127.0.0.1:${port}/health`], { cwd: runtime, stdio: "pipe" })).toThrow();
  });
});

async function until(ready: () => Promise<boolean>, processes: Record<string, ScriptProcess>, timeoutMs = STARTED_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    const ended = Object.entries(processes).find(([, p]) => p.child.exitCode !== null);
    if (ended || Date.now() > deadline) {
      throw new Error(Object.entries(processes).map(([name, p]) => `${name}:\n${p.stdout()}\n${p.stderr()}`).join("\n"));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
