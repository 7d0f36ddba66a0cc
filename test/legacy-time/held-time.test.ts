import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { redisAvailable, useReplicasWithRedis } from "../helpers/replicas.js";
import { upstreamCalls, type GraphQLResponse } from "../helpers/stack.js";

/**
 * The legacy time data held (DIRECTORY_LEGACY_TIME_FRESH_S, reference-cache.ts): the directory
 * sends no event of time entries, timesheets or axis sections, so a read answers again from memory
 * within the bound; a change made elsewhere shows once the bound has passed, a write through the
 * facade at once (read-your-writes), on every replica; and a write's read-merge never starts from
 * what is held, so that it does not undo a change made elsewhere meanwhile.
 */

const API_KEY = { authorization: "service application=demo-api-key" };
const ENTRY = `query($id: ID!) { timeEntry(id: $id) { id duration comment { content } } }`;
const UPDATE = `mutation($id: ID!, $input: TimeEntryInput!) { updateTimeEntry(id: $id, input: $input) { __typename ... on TimeEntry { duration comment { content } } ... on MutationError { message } } }`;
const minutes = (n: number) => `00:${String(n).padStart(2, "0")}:00`;

/** A change of the entry's comment by another integration of the directory (its legacy API, the API key), not through the facade. */
async function changeElsewhere(directoryUrl: string, id: string, comment: string): Promise<void> {
  const read = await fetch(`${directoryUrl}/api/v3/timeentries/${id}`, { headers: API_KEY });
  const entry = ((await read.json()) as { data: any }).data;
  const body = {
    id: entry.id,
    ownerId: entry.ownerId,
    unit: entry.unit,
    startsAt: entry.startsAt,
    duration: entry.duration,
    creationSource: entry.creationSource,
    axisSections: entry.axisSections ? entry.axisSections.map((s: { id: number }) => ({ id: s.id })) : null,
    comment: { content: comment },
    timeTypeId: entry.timeTypeId,
  };
  const put = await fetch(`${directoryUrl}/api/v3/timeentries/${id}`, { method: "PUT", headers: { ...API_KEY, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(put.status, await put.text()).toBe(200);
}

function entryOf(response: GraphQLResponse): { duration: string; comment: string | null } {
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return { duration: response.data.timeEntry.duration, comment: response.data.timeEntry.comment?.content ?? null };
}

describe("legacy time data held for DIRECTORY_LEGACY_TIME_FRESH_S", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_LEGACY_TIME_FRESH_S: "600" } });
  let demo: Demo;
  let entryId: string;
  beforeAll(() => {
    demo = pickDemoData(stack.directory.company);
    entryId = String(variablesOf(demo, operationNamed(loadOperations(), "UpdateTimeEntry")).id);
  });
  const legacyTimeCalls = () => upstreamCalls({ byRoute: Object.fromEntries(Object.entries(stack.stats().byRoute).filter(([route]) => /\/api\/v3\/(timeentries|timmitimesheets|axisSections)/.test(route))) });

  it("a Timesheet asked again reads the employee only: its entries and sections are held", async () => {
    const operation = operationNamed(loadOperations(), "Timesheet");
    const first = await stack.query(operation.source, variablesOf(demo, operation));
    expect(first.errors, JSON.stringify(first.errors)).toBeUndefined();
    stack.resetStats();
    const again = await stack.query(operation.source, variablesOf(demo, operation));
    expect(again.data).toEqual(first.data);
    expect(legacyTimeCalls()).toBe(0);
    expect(upstreamCalls(stack.stats())).toBe(1);
  });

  it("a change made elsewhere is not read within the bound; a write through the facade merges it, and reads back at once", async () => {
    const before = entryOf(await stack.query(ENTRY, { id: entryId }));
    await changeElsewhere(stack.directory.url, entryId, "changed in the directory's own screens");
    stack.resetStats();
    // within the bound: what was read is answered, no request
    expect(entryOf(await stack.query(ENTRY, { id: entryId }))).toEqual(before);
    expect(legacyTimeCalls()).toBe(0);

    const duration = minutes(before.duration === minutes(41) ? 42 : 41);
    const written = await stack.query(UPDATE, { id: entryId, input: { duration } });
    expect(written.errors, JSON.stringify(written.errors)).toBeUndefined();
    // the merge read the entry from the directory (the held copy has the old comment): both changes kept
    expect(written.data.updateTimeEntry).toEqual({ __typename: "TimeEntry", duration, comment: { content: "changed in the directory's own screens" } });
    expect(stack.stats().byRoute["GET /api/v3/timeentries/{id}"]).toBe(1);
    // read-your-writes: the held entry was dropped by the write
    expect(entryOf(await stack.query(ENTRY, { id: entryId }))).toEqual({ duration, comment: "changed in the directory's own screens" });
  });
});

describe.runIf(redisAvailable())("legacy time data held on two replicas sharing Redis", () => {
  const replicas = useReplicasWithRedis({ env: { DIRECTORY_LEGACY_TIME_FRESH_S: "600" } });

  it("a write through one replica is read at once through the other, which held the entry before it", async () => {
    const [a, b] = replicas.bed.replicas;
    const demo = pickDemoData(replicas.bed.directory.company);
    const id = String(variablesOf(demo, operationNamed(loadOperations(), "UpdateTimeEntry")).id);
    const before = entryOf(await b!.query(ENTRY, { id }));
    replicas.bed.directory.stats.reset();
    expect(entryOf(await b!.query(ENTRY, { id }))).toEqual(before);
    expect(replicas.bed.directory.stats.snapshot().byRoute["GET /api/v3/timeentries/{id}"]).toBeUndefined();

    const duration = minutes(before.duration === minutes(43) ? 44 : 43);
    const written = await a!.query(UPDATE, { id, input: { duration } });
    expect(written.data?.updateTimeEntry?.__typename, JSON.stringify(written)).toBe("TimeEntry");
    // b drops its copy when it hears a's write on the change feed (Redis pub/sub: as soon as a's PUT
    // has answered); the poll's long timeout is for a busy machine, it returns at the first fresh read
    await expect.poll(async () => entryOf(await b!.query(ENTRY, { id })).duration, { timeout: 30_000, interval: 50 }).toBe(duration);
  });
});
