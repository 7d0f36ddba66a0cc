import { Agent, Server, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postGraphQL } from "../helpers/stack.js";
import { STARTED_WITHIN_MS, freePorts, killAll, logLines, runScript, runToExit, type Exit, type ScriptProcess } from "../helpers/process.js";

/**
 * Each component as its own process, as deployed as separate services: `npm run directory`,
 * `npm run subgraph:<name>` and `npm run gateway`, wired together by their port variables only.
 * They answer an operation end to end, log one JSON line per operation as LOG_LEVEL says, stop
 * on SIGTERM, and refuse a bad configuration with one clear line.
 */

const SECRET = "processes-test-secret";
let directory: ScriptProcess;
let subgraphs: Record<"people" | "organisation" | "legacy-time", ScriptProcess>;
let gateway: ScriptProcess;
let gatewayUrl: string;
let directoryUrl: string;

beforeAll(async () => {
  const [directoryPort, peoplePort, organisationPort, legacyTimePort, gatewayPort] = (await freePorts(5)).map(String);
  const wiring = {
    DIRECTORY_PORT: directoryPort!,
    PEOPLE_PORT: peoplePort!,
    ORGANISATION_PORT: organisationPort!,
    LEGACY_TIME_PORT: legacyTimePort!,
    SUBGRAPH_SECRET: SECRET,
    // no grace period before refusing: nothing routes traffic here (test/gateway/shutdown.test.ts has it)
    SHUTDOWN_GRACE_MS: "0",
  };
  // started together: a subgraph needs the directory only per request, the gateway (from the
  // committed supergraph) needs the subgraphs only per operation
  directory = runScript("directory/main.ts", { DIRECTORY_PORT: directoryPort!, DIRECTORY_TODAY: "2026-06-15", SHUTDOWN_GRACE_MS: "0" });
  subgraphs = {
    // people logs warnings only: its operation lines must not appear
    people: runScript("subgraphs/people/main.ts", { ...wiring, LOG_LEVEL: "warn" }),
    organisation: runScript("subgraphs/organisation/main.ts", { ...wiring, LOG_LEVEL: "info" }),
    "legacy-time": runScript("subgraphs/legacy-time/main.ts", { ...wiring, LOG_LEVEL: "info" }),
  };
  gateway = runScript("gateway/main.ts", { ...wiring, GATEWAY_PORT: gatewayPort!, LOG_LEVEL: "info" });
  await Promise.all([
    directory.waitFor(/^directory service: /m),
    // people announces itself at info level only, so its port answering is the sign
    subgraphs.organisation.waitFor(/"msg":"listening"/),
    subgraphs["legacy-time"].waitFor(/"msg":"listening"/),
    gateway.waitFor(/"msg":"listening"/),
  ]);
  gatewayUrl = `http://127.0.0.1:${gatewayPort}/`;
  directoryUrl = `http://127.0.0.1:${directoryPort}`;
  await until(async () => (await fetch(`http://127.0.0.1:${peoplePort}/health`).catch(() => null))?.ok === true, subgraphs.people);
});

afterAll(killAll);

async function until(ready: () => Promise<boolean>, process: ScriptProcess, timeoutMs = STARTED_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (process.child.exitCode !== null || Date.now() > deadline) throw new Error(`not ready\nstdout: ${process.stdout()}\nstderr: ${process.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PROBE = `query ProcessProbe($id: ID!) {
  employee(id: $id) {
    givenName
    applicableJobPosition { department { name legacy { code } } }
    applicableWorkContract { id }
  }
}`;

const REFUSED = `query RefusedRange { employee(id: "3") { timeEntries(from: "2026-06-14", to: "2026-06-08") { id } } }`;

/** The log lines of one operation, once the process has written them. */
async function operationLine(process: ScriptProcess, name: RegExp): Promise<Record<string, unknown>> {
  // the request's own fields (`requestId`, with tracing `traceId`, `spanId`) come between the two
  await process.waitFor(new RegExp(`"msg":"operation",(?:"[A-Za-z]+":"[^"]*",)*"operation":"${name.source}"`), 5_000);
  return logLines(process.stdout(), "operation").find((line) => name.test(String(line.operation)))!;
}

describe("each component as its own process", () => {
  it("the gateway process answers an operation across the three subgraph processes and the directory process", async () => {
    const response = await postGraphQL(gatewayUrl, PROBE, { id: "3" });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.employee).toMatchObject({
      givenName: expect.any(String),
      applicableJobPosition: { department: { name: expect.any(String), legacy: { code: expect.any(String) } } },
      applicableWorkContract: { id: expect.any(String) },
    });
  });

  it("the gateway process is ready when its subgraph processes answer", async () => {
    const res = await fetch(new URL("/ready", gatewayUrl));
    expect(await res.json()).toEqual({ status: "ready", subgraphs: { people: "ok", organisation: "ok", "legacy-time": "ok" } });
  });

  it("a subgraph process refuses a caller without the shared secret", async () => {
    const legacyUrl = logLines(subgraphs["legacy-time"].stdout(), "listening")[0]!.url as string;
    const response = await postGraphQL(legacyUrl, "{ __typename }");
    expect(response.status).toBe(403);
  });
});

describe("structured logs", () => {
  it("the gateway writes one JSON line per operation: its name, duration, subgraph fetches and no errors", async () => {
    await postGraphQL(gatewayUrl, PROBE, { id: "4" });
    const line = await operationLine(gateway, /ProcessProbe/);
    expect(line).toMatchObject({ level: "info", component: "gateway", operation: "ProcessProbe", errors: 0 });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(line.subgraphFetches).toBeGreaterThanOrEqual(3);
    expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("an operation that fails has its error count and codes in its line", async () => {
    await postGraphQL(gatewayUrl, REFUSED);
    const line = await operationLine(gateway, /RefusedRange/);
    expect(line).toMatchObject({ operation: "RefusedRange", errors: 1, codes: ["BAD_USER_INPUT"] });
  });

  it("a subgraph writes one line per operation it serves, with its upstream calls", async () => {
    await postGraphQL(gatewayUrl, PROBE, { id: "5" });
    const line = await operationLine(subgraphs["legacy-time"], /ProcessProbe__legacy_time__\d+/);
    expect(line).toMatchObject({ component: "legacy-time", errors: 0 });
    expect(line.upstreamCalls).toBeGreaterThan(0);
  });

  it("LOG_LEVEL=warn leaves the operation lines out", async () => {
    const response = await postGraphQL(gatewayUrl, PROBE, { id: "6" });
    expect(response.data.employee.givenName).toEqual(expect.any(String)); // served by people
    await operationLine(subgraphs.organisation, /ProcessProbe__organisation__\d+/);
    expect(subgraphs.people.stdout()).not.toMatch(/"msg":"operation"/);
  });
});

/** One POST on a keep-alive connection that stays open after the answer, as clients leave them. */
function postKeepingAlive(url: string, query: string, variables: Record<string, unknown>): Promise<{ errors?: unknown[]; data?: any }> {
  const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve(JSON.parse(body)));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ query, variables }));
  });
}

describe("shutdown", () => {
  const admin = (path: string, init?: RequestInit) => fetch(`${directoryUrl}/_admin/${path}`, init);

  it("the gateway process finishes an operation in flight, then exits on SIGTERM with status 0 without waiting for idle clients", async () => {
    await admin("stats/reset", { method: "POST" });
    await admin("faults", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ latencyMs: 150 }) });
    try {
      const inFlight = postKeepingAlive(gatewayUrl, PROBE, { id: "7" });
      // the operation has reached the directory, so it is inside the gateway
      while (((await (await admin("stats")).json()) as { total: number }).total === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const exit = gateway.stop("SIGTERM");
      const response = await inFlight;
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      expect(response.data.employee.givenName).toEqual(expect.any(String));
      expect(await exit).toEqual({ code: 0, signal: null });
      expect(logLines(gateway.stdout(), "shutting down")).toHaveLength(1);
      // the client keeps its connection open: the gateway must not wait for it. One that waited
      // would stop only once the idle connection timed out, Node's keep-alive timeout (the gateway
      // keeps the default, 5 s) after the answer. So the stop, in the process's own terms (its
      // "stopped" line: from the signal handled to the exit, start-up and exit not counted), must
      // take under 4/5 of that: over 3 s of slack for a loaded machine beside the ~0.3 s it takes
      const [stopped] = logLines(gateway.stdout(), "stopped");
      expect(stopped).toMatchObject({ signal: "SIGTERM", inFlightAtRefusal: 1, cut: 0 });
      expect(Number(stopped!.ms)).toBeLessThan(0.8 * new Server().keepAliveTimeout);
    } finally {
      await admin("faults", { method: "DELETE" });
    }
  });

  it("each subgraph process exits on SIGTERM with status 0", async () => {
    const all = Object.values(subgraphs);
    expect(await Promise.all(all.map((p) => p.stop("SIGTERM")))).toEqual(all.map((): Exit => ({ code: 0, signal: null })));
  });

  it("the directory process exits on SIGTERM with status 0", async () => {
    expect(await directory.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });
});

describe("bad configuration", () => {
  const cases: Array<[string, string, Record<string, string>, number, RegExp]> = [
    ["directory", "directory/main.ts", { DIRECTORY_EMPLOYEES: "lots" }, 2, /^directory: .*DIRECTORY_EMPLOYEES /],
    // the three subgraphs share runSubgraphMain: one stands for them
    ["legacy-time", "subgraphs/legacy-time/main.ts", { LOG_LEVEL: "loud" }, 2, /^legacy-time: configuration error: LOG_LEVEL /],
    ["gateway", "gateway/main.ts", { LOG_LEVEL: "loud" }, 2, /^gateway: configuration error: LOG_LEVEL /],
    ["gateway", "gateway/main.ts", { GATEWAY_SUPERGRAPH: "/nowhere/supergraph.graphql", GATEWAY_PORT: "0" }, 1, /^gateway: cannot start: .*GATEWAY_SUPERGRAPH/],
    ["npm start", "scripts/start.ts", { GATEWAY_COMPOSE: "rover" }, 2, /^start: configuration error: GATEWAY_COMPOSE /],
    // a drain shorter than the process's deadline would cut operations within it, writes included
    ["legacy-time", "subgraphs/legacy-time/main.ts", { SHUTDOWN_DRAIN_MS: "500" }, 2, /^legacy-time: configuration error: SHUTDOWN_DRAIN_MS \(500\) must be at least SUBGRAPH_DEADLINE_MS \(10000\): /],
    ["gateway", "gateway/main.ts", { SHUTDOWN_DRAIN_MS: "500" }, 2, /^gateway: configuration error: SHUTDOWN_DRAIN_MS \(500\) must be at least GATEWAY_DEADLINE_MS \(10000\): /],
    ["npm start", "scripts/start.ts", { SHUTDOWN_DRAIN_MS: "15000", GATEWAY_DEADLINE_MS: "60000" }, 2, /^start: configuration error: SHUTDOWN_DRAIN_MS \(15000\) must be at least GATEWAY_DEADLINE_MS \(60000\): /],
  ];
  let results: Array<{ exit: Exit; stdout: string; stderr: string }>;

  beforeAll(async () => {
    results = await Promise.all(cases.map(([, script, env]) => runToExit(script, env)));
  });

  it.each(cases.map((c, i) => [c[0], Object.keys(c[2]).join(", "), i] as const))(
    "%s with a bad %s stops at once with one line naming it, and no stack trace",
    (_name, _variables, i) => {
      const [, , , status, message] = cases[i]!;
      const { exit, stdout, stderr } = results[i]!;
      expect(exit.code, stderr).toBe(status);
      expect(stderr.trim()).toMatch(message);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      // nothing was started: no banner, no listening line
      expect(stdout).toBe("");
    },
  );
});
