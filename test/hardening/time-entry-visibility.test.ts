import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { OPEN_WEEK, entitiesQuery, legacyGet, range, representations } from "../legacy-time/helpers.js";

/**
 * Forward mode: a limited caller learns nothing of a time entry whose owner it cannot read.
 * `timeEntry`, the TimeEntry reference `node(nodeId:)` reads and `updateTimeEntry` answer an outside id exactly as they answer
 * an id that does not exist (null; NotFoundError), and no answer names the owner.
 */

const stack = useStack({ subgraphs: ["legacy-time"], env: { DIRECTORY_AUTH: "forward", DIRECTORY_FORWARD_LEGACY_WRITES: "readers" } });
let url: string;
let limited: Record<string, string>;
let outside: { id: string; ownerId: string };
const NONEXISTENT = "999999999";

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
  const token = await stack.token("demo-limited");
  limited = { authorization: `Bearer ${token}` };
  const res = await fetch(`${stack.directory.url}/service-api/employees?id=${range(1, 100).join(",")}&limit=100`, { headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01" } });
  const seen = new Set(((await res.json()) as { items: Array<{ id: string }> }).items.map((e) => e.id));
  const hidden = range(1, 100).map(String).find((id) => !seen.has(id))!;
  const entry = (await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=${hidden}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items[0];
  outside = { id: String(entry.id), ownerId: hidden };
});

/** the answer without the id asked, so that two ids' answers compare */
const answerOf = async (query: string, variables: Record<string, unknown>, id: string) =>
  JSON.stringify(await stack.gql(url, query, variables, limited)).replaceAll(id, "<id>");

describe("forward mode: an outside time entry answers as a nonexistent one", () => {
  const cases: Array<[string, string, (id: string) => Record<string, unknown>]> = [
    ["timeEntry", `query($id: ID!) { timeEntry(id: $id) { id duration } }`, (id) => ({ id })],
    // the gateway's node(nodeId:) of a TimeEntry reads this reference
    ["node(TimeEntry)'s reference", entitiesQuery("TimeEntry", "id duration"), (id) => ({ r: representations("TimeEntry", [id]) })],
    ["updateTimeEntry", `mutation($id: ID!) { updateTimeEntry(id: $id, input: { comment: "not mine" }) { __typename ... on NotFoundError { message } ... on ForbiddenError { message } } }`, (id) => ({ id })],
  ];
  for (const [name, query, variables] of cases) {
    it(`${name}: the same answer for an outside id as for a nonexistent one, no owner named`, async () => {
      const outsideAnswer = await answerOf(query, variables(outside.id), outside.id);
      const missingAnswer = await answerOf(query, variables(NONEXISTENT), NONEXISTENT);
      expect(outsideAnswer).toMatch(/"data":\{/);
      expect(outsideAnswer).toBe(missingAnswer);
      expect(outsideAnswer).not.toMatch(new RegExp(`employee ${outside.ownerId}\\b`));
    });
  }
});
