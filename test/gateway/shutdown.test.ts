import { spawnSync } from "node:child_process";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createClient as createSseClient } from "graphql-sse";
import { postGraphQL, useDirectory } from "../helpers/stack.js";
import { collect, gatewaySse, gatewayWs, until } from "../helpers/subscriptions.js";
import { freePorts, killAll, logLines, runCommand, runScript } from "../helpers/process.js";
import { REPEATED_SIGNAL_WINDOW_MS } from "../../platform/lifecycle.js";

/**
 * The stop of a process (platform/lifecycle.ts), with real processes: `/ready` turns 503 at once
 * on the signal, operations are still served for SHUTDOWN_GRACE_MS, then refused with a
 * retryable SHUTTING_DOWN; the operation in flight finishes; the process exits 0. `npm start`
 * stopped through npm leaves no process behind. A signal repeated within
 * REPEATED_SIGNAL_WINDOW_MS (a process group's copies) counts once; one after it exits at once.
 */

afterAll(killAll);

const PROBE = "query Probe($id: ID!) { employee(id: $id) { id givenName } }";
const CHANGES = "subscription Changes { employeeChanged { eventId } }";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function portsEnv() {
  const [directory, people, organisation, legacyTime, gateway] = await freePorts(5);
  return {
    env: {
      DIRECTORY_PORT: String(directory),
      PEOPLE_PORT: String(people),
      ORGANISATION_PORT: String(organisation),
      LEGACY_TIME_PORT: String(legacyTime),
      GATEWAY_PORT: String(gateway),
      DIRECTORY_TODAY: "2026-06-15",
    },
    gatewayUrl: `http://127.0.0.1:${gateway}/`,
    directoryUrl: `http://127.0.0.1:${directory}`,
  };
}

describe("the stop of npm start", () => {
  it("SIGTERM: /ready 503 at once, operations served during the grace period then refused, the one in flight finished, exit 0", async () => {
    const { env, gatewayUrl, directoryUrl } = await portsEnv();
    const start = runScript("scripts/start.ts", { ...env, LOG_LEVEL: "info", SHUTDOWN_GRACE_MS: "1500", SHUTDOWN_DRAIN_MS: "15000" });
    await start.waitFor(/^gateway: /m);
    const admin = (path: string, init?: RequestInit) => fetch(`${directoryUrl}/_admin/${path}`, init);
    const id = "1";
    const inFlightId = "2";
    expect((await postGraphQL(gatewayUrl, PROBE, { id })).errors).toBeUndefined();
    expect((await fetch(`${gatewayUrl}ready`)).status).toBe(200);

    await admin("stats/reset", { method: "POST" });
    await admin("faults", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ latencyMs: 2500 }) });
    // another employee than the one read above: that one's answer is held (npm start hears the
    // directory's events), so its read would never reach the directory
    const inFlight = postGraphQL(gatewayUrl, PROBE, { id: inFlightId });
    // the operation has reached the directory
    while (((await (await admin("stats")).json()) as { total: number }).total === 0) await sleep(20);
    await admin("faults", { method: "DELETE" });

    const signalled = performance.now();
    start.child.kill("SIGTERM");
    let ready: Response;
    while ((ready = await fetch(`${gatewayUrl}ready`)).status === 200) await sleep(5);
    const toReady503 = performance.now() - signalled;
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "draining" });
    // promptly: /ready answered 503 while operations are still served (the 200 just below), that
    // is within the grace period, which is what the balancer needs; an ordering, not a time

    // within the grace period: still served (traffic routed before the balancer saw /ready)
    const during = await fetch(gatewayUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) });
    expect(during.status).toBe(200);
    expect((await fetch(`${gatewayUrl}health`)).status).toBe(200);

    // after it: refused, retryable
    let refused: Response;
    while ((refused = await fetch(gatewayUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) })).status === 200) await sleep(20);
    const toRefusal = performance.now() - signalled;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ errors: [{ message: "The server is shutting down: retry the request", extensions: { code: "SHUTTING_DOWN" } }] });
    expect(toRefusal).toBeGreaterThanOrEqual(1400);

    const answer = await inFlight;
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.employee.id).toBe(inFlightId);
    expect(await start.exited).toEqual({ code: 0, signal: null });
    const exitMs = performance.now() - signalled;
    const [stopped] = logLines(start.stdout(), "stopped");
    expect(stopped).toMatchObject({ signal: "SIGTERM", inFlightAtRefusal: 1, cut: 0 });
    console.log(`stop sequence: /ready 503 after ${toReady503.toFixed(0)} ms, refusing after ${toRefusal.toFixed(0)} ms, in-flight operation answered, exit 0 after ${exitMs.toFixed(0)} ms`);
  });

  it("SIGTERM to npm itself (npm start as the parent) stops the node process too: nothing is left running", async () => {
    const { env, gatewayUrl } = await portsEnv();
    const npm = runCommand("npm", ["start"], { ...env, LOG_LEVEL: "warn", SHUTDOWN_GRACE_MS: "0" });
    await npm.waitFor(/^gateway: /m);
    expect((await fetch(`${gatewayUrl}health`)).status).toBe(200);
    // npm's child is node itself (the script execs it), not a shell that would not pass the signal on
    const children = spawnSync("ps", ["-o", "comm=", "--ppid", String(npm.child.pid)], { encoding: "utf8" }).stdout.trim().split("\n");
    expect(children).toEqual(["node"]);
    await npm.stop("SIGTERM");
    await expect(fetch(`${gatewayUrl}health`)).rejects.toThrow();
  });

  it("the drain is bounded: an operation still in flight after SHUTDOWN_DRAIN_MS is cut and the process exits 0", async () => {
    const { env, gatewayUrl } = await portsEnv();
    // the drain outlasts the deadlines (a shorter one is refused at start-up): what it cuts is a
    // request no deadline bounds, a client that never finishes sending its operation
    const start = runScript("scripts/start.ts", { ...env, LOG_LEVEL: "info", SHUTDOWN_GRACE_MS: "0", SHUTDOWN_DRAIN_MS: "500", GATEWAY_DEADLINE_MS: "500", SUBGRAPH_DEADLINE_MS: "500" });
    await start.waitFor(/^gateway: /m);
    const socket = connect(Number(new URL(gatewayUrl).port), "127.0.0.1");
    socket.on("error", () => undefined);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":');
    await sleep(300);
    start.child.kill("SIGINT");
    expect(await start.exited).toEqual({ code: 0, signal: null });
    await closed;
    expect(logLines(start.stderr(), "drain time exceeded: cutting the requests in flight")).toHaveLength(1);
    // the promise: the process exits once the drain time is over, with the request cut. Measured
    // in the process's own terms (its "stopped" line, from the signal handled to the exit), so
    // process start-up and signal delivery do not count; 4 x the drain time (1.5 s of slack) is
    // far enough for a loaded machine's scheduler and still far below what a drain that did not
    // cut would wait for: a client that never finishes, ended only by Node's 300 s request timeout
    const [stopped] = logLines(start.stdout(), "stopped");
    expect(stopped).toMatchObject({ signal: "SIGINT", inFlightAtRefusal: 1, cut: 1 });
    expect(Number(stopped!.ms)).toBeGreaterThanOrEqual(500);
    expect(Number(stopped!.ms)).toBeLessThan(4 * 500);
  });

  it("SIGINT twice to npm start's process group (Ctrl-C, timeout, systemd) drains: the copies count once, exit 0", async () => {
    const { env, gatewayUrl } = await portsEnv();
    const npm = runCommand("npm", ["start"], { ...env, LOG_LEVEL: "debug", SHUTDOWN_GRACE_MS: "300", SHUTDOWN_DRAIN_MS: "5000", GATEWAY_DEADLINE_MS: "5000", SUBGRAPH_DEADLINE_MS: "5000" }, undefined, { group: true });
    await npm.waitFor(/^gateway: /m);
    expect((await fetch(`${gatewayUrl}ready`)).status).toBe(200);
    // what a terminal does on Ctrl-C, twice in quick succession: every process of the group gets
    // each one, node both from the kernel and from npm passing it on. The second is sent once
    // node has taken the first (its "shutting down" line): copies sent before that may merge into
    // one pending signal in the kernel, so a starved machine would otherwise deliver only one
    npm.signalGroup("SIGINT");
    await npm.waitFor(/shutting down/);
    npm.signalGroup("SIGINT");
    await npm.exited;
    const out = npm.stdout() + npm.stderr();
    expect(logLines(out, "second signal: exiting now")).toEqual([]);
    expect(logLines(out, "repeated signal: the stop under way goes on").length).toBeGreaterThanOrEqual(1);
    const [stopped] = logLines(out, "stopped");
    expect(stopped).toMatchObject({ signal: "SIGINT", cut: 0 });
    expect(stopped!.ms as number).toBeGreaterThanOrEqual(300);
    await expect(fetch(`${gatewayUrl}health`)).rejects.toThrow();
  });

  it("a second signal after the window exits at once (status 1), the grace period not waited", async () => {
    const { env, gatewayUrl } = await portsEnv();
    const start = runScript("scripts/start.ts", { ...env, LOG_LEVEL: "info", SHUTDOWN_GRACE_MS: "60000", SHUTDOWN_DRAIN_MS: "5000", GATEWAY_DEADLINE_MS: "5000", SUBGRAPH_DEADLINE_MS: "5000" });
    await start.waitFor(/^gateway: /m);
    expect((await fetch(`${gatewayUrl}ready`)).status).toBe(200);
    start.child.kill("SIGINT");
    while ((await fetch(`${gatewayUrl}ready`)).status === 200) await sleep(20);
    await sleep(REPEATED_SIGNAL_WINDOW_MS + 200);
    start.child.kill("SIGINT");
    expect(await start.exited).toEqual({ code: 1, signal: null });
    expect(logLines(start.stdout() + start.stderr(), "second signal: exiting now")).toHaveLength(1);
    expect(logLines(start.stdout() + start.stderr(), "stopped")).toEqual([]);
  });
});

/**
 * The drain waits for no stream: as the stop begins, every open subscription ends with a
 * `complete` (graphql-sse and graphql-ws alike), so the drain finds nothing in flight and does not
 * run to its deadline (SHUTDOWN_DRAIN_MS, far above the grace here).
 */
describe("the stop with subscriptions open", () => {
  const directory = useDirectory({ employees: 10 });

  it("npm start: an SSE and a graphql-ws subscription complete as the stop begins; the drain hits no deadline and cuts nothing", async () => {
    const { env, gatewayUrl } = await portsEnv();
    const start = runScript("scripts/start.ts", { ...env, LOG_LEVEL: "info", SHUTDOWN_GRACE_MS: "300", SHUTDOWN_DRAIN_MS: "60000" });
    await start.waitFor(/^gateway: /m);
    const disposers: Array<() => unknown> = [];
    const sse = collect((sink) => gatewaySse(gatewayUrl, disposers).subscribe({ query: CHANGES }, sink));
    const ws = collect((sink) => gatewayWs(gatewayUrl, disposers).subscribe({ query: CHANGES }, sink));
    // both open at the gateway
    const open = async () => /^graphql_subscriptions_open 2$/m.test(await (await fetch(`${gatewayUrl}metrics`)).text());
    while (!(await open())) await sleep(20);

    start.child.kill("SIGTERM");
    // before the refusals begin: ended by the stop itself, not by the servers' close
    await until(() => sse.complete && ws.complete, 30_000);
    expect((await fetch(`${gatewayUrl}ready`)).status).toBe(503);
    expect(await start.exited).toEqual({ code: 0, signal: null });
    for (const dispose of disposers) await dispose();
    expect(sse).toMatchObject({ error: null, complete: true, results: [] });
    expect(ws).toMatchObject({ error: null, complete: true, results: [] });
    const out = start.stdout() + start.stderr();
    expect(logLines(out, "drain time exceeded: cutting the requests in flight")).toEqual([]);
    expect(logLines(out, "stopped")).toMatchObject([{ signal: "SIGTERM", drained: true, cut: 0 }]);
  });

  it("a subgraph run alone: its stream completes as the stop begins, after an SSE retry advice; the drain hits no deadline", async () => {
    const [port] = await freePorts(1);
    const subgraph = runScript("subgraphs/people/main.ts", {
      LOG_LEVEL: "info",
      PEOPLE_PORT: String(port),
      DIRECTORY_BASE_URL: directory.url,
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
      DIRECTORY_EVENTS: "poll",
      SHUTDOWN_GRACE_MS: "300",
      SHUTDOWN_DRAIN_MS: "60000",
    });
    await subgraph.waitFor(/"msg":"listening"/);
    const streamUrl = `http://127.0.0.1:${port}/graphql/stream`;
    // the gateway's own client of a subgraph's stream (distinct connections)
    const client = createSseClient({ url: streamUrl, retryAttempts: 0 });
    const received = collect((sink) => client.subscribe({ query: CHANGES }, sink));
    // a raw reader beside it sees what is written on the wire: the retry advice, then the complete
    const raw = await fetch(streamUrl, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify({ query: CHANGES }) });
    expect(raw.status).toBe(200);
    const wire = raw.text();
    await sleep(200);
    subgraph.child.kill("SIGTERM");
    await until(() => received.complete, 30_000);
    expect(await subgraph.exited).toEqual({ code: 0, signal: null });
    client.dispose();
    expect(received).toMatchObject({ error: null, complete: true, results: [] });
    expect(await wire).toMatch(/retry: \d+\n\n(.|\n)*event: complete/);
    const out = subgraph.stdout() + subgraph.stderr();
    expect(logLines(out, "drain time exceeded: cutting the requests in flight")).toEqual([]);
    expect(logLines(out, "stopped")).toMatchObject([{ signal: "SIGTERM", drained: true, cut: 0 }]);
  });
});
