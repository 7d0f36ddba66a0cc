import { expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";

/** The names before 0.1.0's renames, kept deprecated (CHANGELOG.md): they answer what the new names answer, at no extra call. */

const stack = useStack({ subgraphs: ["people"] });

it("Employment.startDate and endDate answer startsOn and endsOn", async () => {
  const query = "{ employments(first: 20) { nodes { startsOn endsOn startDate endDate } } }";
  const withNew = await stack.gql(stack.subgraphs.people!.url, "{ employments(first: 20) { nodes { startsOn endsOn } } }");
  stack.resetStats();
  const response = await stack.gql(stack.subgraphs.people!.url, query);
  expect(response.errors).toBeUndefined();
  const nodes = response.data.employments.nodes as Array<Record<string, string | null>>;
  expect(nodes.length).toBeGreaterThan(0);
  expect(nodes.some((n) => n.endsOn !== null)).toBe(true);
  for (const n of nodes) expect([n.startDate, n.endDate]).toEqual([n.startsOn, n.endsOn]);
  expect(nodes.map((n) => n.startsOn)).toEqual(withNew.data.employments.nodes.map((n: { startsOn: string }) => n.startsOn));
  expect(stack.stats().total).toBe(1);
});
