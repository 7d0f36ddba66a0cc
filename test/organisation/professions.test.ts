import { describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { counting, query, representations, send } from "./helpers.js";

/**
 * `Profession`: the root reads, `JobQualification.profession` (one loader for every qualification
 * of the request) and the reverse edge `Profession.jobQualifications` (one list call per 100
 * professions), compared with direct REST reads of the in-process directory.
 */

const stack = useStack({ subgraphs: ["organisation"] });

const rest = <T>(path: string, query: Record<string, string> = {}) => stack.upstream.session().current.all<T>(path, query);

interface RestProfession {
  id: string;
  title: string;
  isArchived: boolean;
  t9n: { title?: Record<string, string> };
}
interface RestQualification {
  id: string;
  title: string;
  profession: { id: string } | null;
}

describe("professions", () => {
  it("the root list and the single read answer what the directory serves, titles translated", async () => {
    const expected = await rest<RestProfession>("/professions");
    expect(expected.length).toBeGreaterThan(1);
    const data = await query(stack, `{ professions(first: 100) { totalCount nodes { id title fr: title(lang: "fr-FR") isArchived titleTranslations { language text } } } }`);
    expect(data.professions.totalCount).toBe(expected.length);
    expect(data.professions.nodes).toEqual(
      expected.map((p) => ({
        id: p.id,
        title: p.title,
        fr: p.t9n.title?.["fr-FR"] ?? p.title,
        isArchived: p.isArchived,
        titleTranslations: Object.entries(p.t9n.title ?? {}).map(([language, text]) => ({ language, text })),
      })),
    );
    const one = expected[1]!;
    const single = await query(stack, `query($id: ID!) { profession(id: $id) { id title } missing: profession(id: "999999") { id } }`, { id: one.id });
    expect(single).toEqual({ profession: { id: one.id, title: one.title }, missing: null });
  });

  it("the isArchived filter is the REST filter", async () => {
    for (const isArchived of [true, false]) {
      const expected = (await rest<RestProfession>("/professions", { isArchived: String(isArchived) })).map((p) => p.id);
      const data = await query(stack, `query($a: Boolean) { professions(first: 100, filter: { isArchived: $a }) { nodes { id } } }`, { a: isArchived });
      expect(data.professions.nodes.map((n: any) => n.id)).toEqual(expected);
    }
  });

  it("a job qualification's profession is the profession its REST reference names", async () => {
    const qualifications = await rest<RestQualification>("/job-qualifications");
    const professions = new Map((await rest<RestProfession>("/professions")).map((p) => [p.id, p]));
    const data = await query(stack, `{ jobQualifications(first: 100) { nodes { id profession { id title } } } }`);
    expect(data.jobQualifications.nodes).toEqual(
      qualifications.slice(0, 100).map((q) => ({
        id: q.id,
        profession: q.profession ? { id: q.profession.id, title: professions.get(q.profession.id)!.title } : null,
      })),
    );
    expect(data.jobQualifications.nodes.some((n: any) => n.profession !== null)).toBe(true);
  });

  it("the professions of the qualifications cost one call, the same at first: 10 and first: 100", async () => {
    const cost = async (first: number) =>
      (await counting(stack, () => query(stack, `query($n: Int) { jobQualifications(first: $n) { nodes { profession { title } } } }`, { n: first }))).calls.byRoute;
    const ten = await cost(10);
    expect(ten).toEqual({ "GET /service-api/job-qualifications": 1, "GET /service-api/professions": 1 });
    expect(await cost(100)).toEqual(ten);
  });

  it("a profession's id alone is answered from the qualification, without reading professions", async () => {
    const { calls } = await counting(stack, () => query(stack, `{ jobQualifications(first: 100) { nodes { profession { id } } } }`));
    expect(calls.byRoute).toEqual({ "GET /service-api/job-qualifications": 1 });
  });

  it("a profession's job qualifications are those of the profession.id filter, in one call for every profession", async () => {
    const professions = await rest<RestProfession>("/professions");
    const qualifications = await rest<RestQualification>("/job-qualifications");
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ professions(first: 20) { nodes { id jobQualifications(first: 100) { totalCount nodes { id profession { id } } } } } }`),
    );
    for (const node of result.professions.nodes) {
      const expected = qualifications.filter((q) => q.profession?.id === node.id).map((q) => ({ id: q.id, profession: { id: node.id } }));
      expect(node.jobQualifications.nodes).toEqual(expected);
      expect(node.jobQualifications.totalCount).toBe(expected.length);
    }
    expect(result.professions.nodes.filter((n: any) => n.jobQualifications.nodes.length > 0).length).toBeGreaterThan(1);
    expect(calls.byRoute).toEqual({ "GET /service-api/professions": 1, "GET /service-api/job-qualifications": 1 });
  });

  it("the edge takes the other job-qualification filters, not its own", async () => {
    const qualifications = await rest<RestQualification & { rank: number }>("/job-qualifications");
    const some = qualifications.find((q) => q.profession !== null)!;
    const data = await query(stack, `query($id: ID!, $r: Int!) { profession(id: $id) { jobQualifications(filter: { ranks: [$r] }) { nodes { id } } } }`, {
      id: some.profession!.id,
      r: some.rank,
    });
    expect(data.profession.jobQualifications.nodes.map((n: any) => n.id)).toEqual(
      qualifications.filter((q) => q.profession?.id === some.profession!.id && q.rank === some.rank).map((q) => q.id),
    );
    const refused = await send(stack, `{ profession(id: "1") { jobQualifications(filter: { professionIds: ["2"] }) { nodes { id } } } }`);
    expect(refused.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(refused.errors?.[0]?.message).toMatch(/professionIds/);
  });

  it("a profession is an entity: the gateway's references resolve in one call", async () => {
    const professions = await rest<RestProfession>("/professions");
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Profession { id title } } }`, {
        r: representations("Profession", [...professions.map((p) => p.id), "999999"]),
      }),
    );
    expect(result._entities).toEqual([...professions.map((p) => ({ id: p.id, title: p.title })), null]);
    expect(calls.byRoute).toEqual({ "GET /service-api/professions": 1 });
  });

  it("bad inputs are refused before any upstream call", async () => {
    const cases = [
      `{ profession(id: "") { id } }`,
      `{ profession(id: "a/b") { id } }`,
      `{ professions(first: 101) { nodes { id } } }`,
      `{ professions(first: -1) { nodes { id } } }`,
      `{ professions(after: "forged") { nodes { id } } }`,
      `{ professions(first: 1) { nodes { jobQualifications(filter: { ranks: [-1] }) { nodes { id } } } } }`,
      `{ professions(first: 1) { nodes { jobQualifications(filter: { professionIds: ["1"] }) { nodes { id } } } } }`,
      `{ jobQualifications(filter: { professionIds: [${Array.from({ length: 101 }, (_, i) => `"${i + 1}"`).join(",")}] }) { nodes { id } } }`,
    ];
    for (const source of cases) {
      const { result, calls } = await counting(stack, () => send(stack, source));
      expect(result.errors?.[0]?.extensions?.code, source).toBe("BAD_USER_INPUT");
      expect(calls.total, source).toBe(0);
    }
  });
});
