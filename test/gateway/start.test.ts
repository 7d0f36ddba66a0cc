import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCompany } from "../../directory/data/generate.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { TODAY, postGraphQL } from "../helpers/stack.js";
import { killAll, runScript, type ScriptProcess } from "../helpers/process.js";

/**
 * `npm start` (scripts/start.ts) as a process: the directory, the three subgraphs and the gateway
 * in one command, here on free ports (every port variable 0). It answers every operation of
 * `operations/`; the ids come from the same demo company, generated again here from the same
 * settings (the generator is deterministic).
 */

const operations = loadOperations();
let start: ScriptProcess;
let gatewayUrl: string;
let demo: Demo;

beforeAll(async () => {
  start = runScript("scripts/start.ts", {
    DIRECTORY_PORT: "0",
    PEOPLE_PORT: "0",
    ORGANISATION_PORT: "0",
    LEGACY_TIME_PORT: "0",
    GATEWAY_PORT: "0",
    DIRECTORY_TODAY: TODAY,
    LOG_LEVEL: "warn",
  });
  demo = pickDemoData(generateCompany({ today: TODAY }));
  gatewayUrl = (await start.waitFor(/^gateway: (\S+)/m))[1]!;
});

afterAll(killAll);

describe("npm start", () => {
  it("prints the URL of each component, each on its own free port", () => {
    const urls = [...start.stdout().matchAll(/^(directory service|subgraph [a-z-]+|gateway): (http:\/\/\S+)/gm)].map((m) => [m[1], m[2]]);
    expect(urls.map(([name]) => name)).toEqual(["directory service", "subgraph people", "subgraph organisation", "subgraph legacy-time", "gateway"]);
    expect(new Set(urls.map(([, url]) => new URL(url!).port)).size).toBe(5);
  });

  it.each(operations.map((o) => [o.name, o] as const))("answers %s without errors", async (_name, operation) => {
    const response = await postGraphQL(gatewayUrl, operation.source, variablesOf(demo, operation));
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data).toBeTruthy();
  });

  it("serves the demo company it announces: the timesheet holds the entries the demo data has", async () => {
    const { id, from, to, entries } = demo.timesheet;
    const response = await postGraphQL(gatewayUrl, operationNamed(operations, "Timesheet").source, { id, from, to });
    expect(response.data.employee.timeEntries.map((e: { id: string }) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it("stops on SIGTERM with status 0, after the gateway and the subgraphs have closed", async () => {
    expect(await start.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    expect(start.stderr()).toBe("");
  });
});
