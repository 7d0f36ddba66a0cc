import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { OPEN_WEEK, employees, entitiesQuery, legacyGet } from "./helpers.js";

/** Upstream failures keep their codes (docs/graph.md#error-codes): the affected field is null with one error naming the call. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});
afterEach(() => stack.directory.faults.clear());

function failEverything(status: number) {
  stack.directory.faults.set({ errorRate: 1, errorStatus: status });
}

describe("legacy-time upstream failures", () => {
  it("a failing legacy API nulls the legacy field with UPSTREAM_UNAVAILABLE and names the call", async () => {
    failEverything(500);
    const res = await stack.gql(url, entitiesQuery("Employee", "id legacyUser { login }"), { r: employees([2, 3]) });
    expect(res.data._entities).toEqual([
      { id: "2", legacyUser: null },
      { id: "3", legacyUser: null },
    ]);
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(["UPSTREAM_UNAVAILABLE", "UPSTREAM_UNAVAILABLE"]);
    expect(res.errors?.[0]?.extensions?.upstream).toEqual({ method: "GET", path: "/users", status: 500 });
  });

  it("a failing time-entry list nulls timeEntries alone, not the employee", async () => {
    failEverything(500);
    const res = await stack.gql(url, entitiesQuery("Employee", "id timeEntries(from: $from, to: $to) { id }", ", $from: Date!, $to: Date!"), {
      r: employees([2]),
      ...OPEN_WEEK,
    });
    expect(res.data._entities).toEqual([{ id: "2", timeEntries: null }]);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", upstream: { path: "/timeentries" } });
  });

  it("a failing read before an update is an error, not a refusal, and writes nothing", async () => {
    const entry = (await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=2&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items[0];
    failEverything(500);
    const res = await stack.gql(url, `mutation($id: ID!) { updateTimeEntry(id: $id, input: { duration: "01:00:00" }) { __typename } }`, {
      id: String(entry.id),
    });
    expect(res.data.updateTimeEntry).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    stack.directory.faults.clear();
    expect((await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=2&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items[0]).toEqual(entry);
  });

  it("a legacy API that refuses the facade's key answers UNAUTHENTICATED", async () => {
    failEverything(401);
    const res = await stack.gql(url, `{ axisSection(id: "1") { id } }`);
    expect(res.data.axisSection).toBeNull();
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED", upstream: { path: "/axisSections", status: 401 } });
  });
});
