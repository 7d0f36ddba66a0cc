import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { byNumericId, counting, expectProperSubset, filteredIds, idsOf, pageAll, query, send } from "./helpers.js";

/** Employee attributes: root fields, definitions (embedded only), `Employee.attributes`, filters and sorts. */

interface Row {
  id: string;
  value: unknown;
  createdAt: string;
  lastUpdatedAt: string;
  applicability: { start: string | null; end: string | null } | null;
  definition: { id: string };
  employee: { id: string };
}

const ROW = "id value createdAt lastUpdatedAt applicability { start end } definition { id } employee { id }";

const stack = useStack({ subgraphs: ["people"] });
let all: Row[];

beforeAll(async () => {
  all = (await pageAll<Row>(stack, "employeeAttributes", ROW, { first: 100 })).nodes;
});

const filtered = (filter: Record<string, unknown>) => filteredIds(stack, "employeeAttributes", "EmployeeAttributeFilter", filter);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const expectSubset = (result: string[], expected: string[]) => expectProperSubset(result, expected, all.length);

const applies = (r: Row, date: string) => r.applicability === null || ((r.applicability.start ?? date) <= date && date <= (r.applicability.end ?? date));

describe("employee attributes", () => {
  it("paging to the end lists every attribute value of the demo once", () => {
    expect(idsOf(all)).toEqual(stack.directory.company.employeeAttributes.map((a) => a.id).sort());
  });

  it("employeeAttribute(id) reads the value with its whole definition", async () => {
    const definition = stack.directory.company.attributeDefinitions.find((d) => d.isArchived)!;
    const attribute = stack.directory.company.employeeAttributes.find((a) => a.definitionId === definition.id)!;
    const data = await query(
      stack,
      `query($id: ID!) { employeeAttribute(id: $id) { id value employee { id } definition {
        id name nameTranslations { language text } multipleValueHandling taxonomy { id } schema propertyDescriptions isArchived lastArchivedAt createdAt lastUpdatedAt } } }`,
      { id: attribute.id },
    );
    expect(data.employeeAttribute).toEqual({
      id: attribute.id,
      value: attribute.value,
      employee: { id: attribute.employeeId },
      definition: {
        id: definition.id,
        name: definition.name,
        nameTranslations: Object.entries(definition.t9n.name ?? {}).map(([language, text]) => ({ language, text })),
        multipleValueHandling: definition.multipleValueHandling,
        taxonomy: null,
        schema: definition.schema,
        propertyDescriptions: definition.propertyDescriptions,
        isArchived: true,
        lastArchivedAt: definition.lastArchivedAt,
        createdAt: definition.createdAt,
        lastUpdatedAt: definition.lastUpdatedAt,
      },
    });
  });

  it("a definition bound to a taxonomy points at the Taxonomy entity", async () => {
    const definition = stack.directory.company.attributeDefinitions.find((d) => d.taxonomyId !== null)!;
    const attribute = stack.directory.company.employeeAttributes.find((a) => a.definitionId === definition.id)!;
    const data = await query(stack, `query($id: ID!) { employeeAttribute(id: $id) { definition { taxonomy { id } } } }`, { id: attribute.id });
    expect(data.employeeAttribute.definition.taxonomy).toEqual({ id: definition.taxonomyId });
  });

  it("a definition's name(lang) picks the translation", async () => {
    const definition = stack.directory.company.attributeDefinitions.find((d) => d.t9n.name?.["fr-FR"])!;
    const attribute = stack.directory.company.employeeAttributes.find((a) => a.definitionId === definition.id)!;
    const data = await query(stack, `query($id: ID!) { employeeAttribute(id: $id) { definition { fr: name(lang: "fr-FR") name } } }`, { id: attribute.id });
    expect(data.employeeAttribute.definition).toEqual({ fr: definition.t9n.name!["fr-FR"], name: definition.name });
  });

  it("an unknown attribute is null without an error", async () => {
    const response = await send(stack, `{ employeeAttribute(id: "999999") { id definition { name } } }`);
    expect(response.errors).toBeUndefined();
    expect(response.data.employeeAttribute).toBeNull();
  });

  it("definitions of a whole page cost one more call, whatever the page size", async () => {
    const source = (first: number) => `{ employeeAttributes(first: ${first}) { nodes { id definition { id name } } } }`;
    const small = await counting(stack, () => query(stack, source(5)));
    const large = await counting(stack, () => query(stack, source(100)));
    expect(large.result.employeeAttributes.nodes.every((n: any) => typeof n.definition.name === "string")).toBe(true);
    expect(small.calls.byRoute).toEqual({ "GET /service-api/employee-attributes": 2 });
    expect(large.calls.byRoute).toEqual(small.calls.byRoute);
  });

  it("a definition read by id only costs no call", async () => {
    const { calls } = await counting(stack, () => query(stack, `{ employeeAttributes(first: 50) { nodes { definition { id } } } }`));
    expect(calls.byRoute).toEqual({ "GET /service-api/employee-attributes": 1 });
  });

  it("an attribute from an employment or a job position links to it", async () => {
    const fromEmployment = stack.directory.company.employeeAttributes.find((a) => a.employmentId !== null)!;
    const fromPosition = stack.directory.company.employeeAttributes.find((a) => a.jobPositionId !== null)!;
    const plain = stack.directory.company.employeeAttributes.find((a) => a.employmentId === null && a.jobPositionId === null)!;
    const data = await query(
      stack,
      `query($a: ID!, $b: ID!, $c: ID!) {
        a: employeeAttribute(id: $a) { employment { id startsOn } jobPosition { id } }
        b: employeeAttribute(id: $b) { employment { id } jobPosition { id startsOn } }
        c: employeeAttribute(id: $c) { employment { id } jobPosition { id } } }`,
      { a: fromEmployment.id, b: fromPosition.id, c: plain.id },
    );
    expect(data.a.employment.id).toBe(fromEmployment.employmentId);
    expect(data.a.employment.startsOn).toEqual(expect.any(String));
    expect(data.b.jobPosition.id).toBe(fromPosition.jobPositionId);
    expect(data.c).toEqual({ employment: null, jobPosition: null });
  });
});

describe("Employee.attributes", () => {
  it("lists every attribute value of the employee with its definition", async () => {
    const employeeId = all[0]!.employee.id;
    const data = await query(stack, `query($id: ID!) { employee(id: $id) { attributes { id definition { id name } value applicability { start end } } } }`, {
      id: employeeId,
    });
    const expected = all.filter((r) => r.employee.id === employeeId);
    expect(data.employee.attributes.map((a: Row) => a.id).sort()).toEqual(idsOf(expected));
    const names = new Map(stack.directory.company.attributeDefinitions.map((d) => [d.id, d.name]));
    for (const a of data.employee.attributes) expect(a.definition.name).toBe(names.get(a.definition.id));
  });

  it("definitionIds and asOf narrow the employee's attributes", async () => {
    const employeeId = all.find((r) => r.applicability?.start)!.employee.id;
    const own = all.filter((r) => r.employee.id === employeeId);
    const definitionIds = [...new Set(own.map((r) => r.definition.id))].slice(0, 2);
    const date = "2020-06-01";
    const data = await query(stack, `query($id: ID!, $defs: [ID!], $date: Date) { employee(id: $id) { attributes(definitionIds: $defs, asOf: $date) { id } } }`, {
      id: employeeId,
      defs: definitionIds,
      date,
    });
    const expected = own.filter((r) => definitionIds.includes(r.definition.id) && applies(r, date));
    expect(data.employee.attributes.map((a: Row) => a.id).sort()).toEqual(idsOf(expected));
  });

  it("the attributes of a page of employees cost one call per 100 values, not one per employee", async () => {
    const source = (first: number) => `{ employees(first: ${first}) { nodes { attributes { id definition { name } } } } }`;
    const small = await counting(stack, () => query(stack, source(3)));
    const large = await counting(stack, () => query(stack, source(100)));
    expect(small.calls.byRoute["GET /service-api/employee-attributes"]).toBe(1);
    const total = large.result.employees.nodes.reduce((n: number, e: any) => n + e.attributes.length, 0);
    expect(total).toBe(all.filter((r) => Number(r.employee.id) <= 100).length);
    // the definitions come embedded with the values: no second read
    expect(large.calls.byRoute["GET /service-api/employee-attributes"]).toBe(Math.ceil(total / 100));
  });
});

describe("EmployeeAttributeFilter", () => {
  it("ids selects exactly those attributes", async () => {
    expect(await filtered({ ids: ["1", "10", "999999"] })).toEqual(["1", "10"]);
  });

  it("definitionIds selects values of those definitions", async () => {
    const id = all[3]!.definition.id;
    expectSubset(await filtered({ definitionIds: [id] }), idsOf(all.filter((r) => r.definition.id === id)));
  });

  it("employeeIds selects values of those employees", async () => {
    const employees = ["1", "2"];
    expectSubset(await filtered({ employeeIds: employees }), idsOf(all.filter((r) => employees.includes(r.employee.id))));
  });

  it("asOf keeps values applicable on the date, open bounds included", async () => {
    expectSubset(await filtered({ asOf: "2016-03-01" }), idsOf(all.filter((r) => applies(r, "2016-03-01"))));
  });

  it("value keeps values equal to a text", async () => {
    const text = all.find((r) => typeof r.value === "string" && r.definition.id === "employee.shirtSize")!.value;
    expectSubset(await filtered({ value: text }), idsOf(all.filter((r) => same(r.value, text))));
  });

  it("value keeps values equal to a number, not to its text", async () => {
    const number = all.find((r) => typeof r.value === "number")!.value as number;
    expectSubset(await filtered({ value: number }), idsOf(all.filter((r) => same(r.value, number))));
    expect(await filtered({ definitionIds: ["employee.childrenCount"], value: String(number) })).toEqual([]);
  });

  it("valueNot keeps the values that differ", async () => {
    const definitionIds = ["employee.shirtSize"];
    const own = all.filter((r) => r.definition.id === "employee.shirtSize");
    const size = own[0]!.value;
    const expected = idsOf(own.filter((r) => !same(r.value, size)));
    expect(expected.length).toBeGreaterThan(0);
    expect(await filtered({ definitionIds, valueNot: size })).toEqual(expected);
  });

  it("valueProperties compares a property of object values", async () => {
    expectSubset(
      await filtered({ valueProperties: [{ property: "currency", equals: "USD" }] }),
      idsOf(all.filter((r) => (r.value as { currency?: string } | null)?.currency === "USD")),
    );
  });

  it("valueProperties notEquals keeps values whose property differs", async () => {
    const own = all.filter((r) => r.definition.id === "jobPosition.workArrangement");
    const expected = idsOf(own.filter((r) => (r.value as { mode?: string }).mode !== "hybrid"));
    expect(expected.length).toBeGreaterThan(0);
    expect(await filtered({ definitionIds: ["jobPosition.workArrangement"], valueProperties: [{ property: "mode", notEquals: "hybrid" }] })).toEqual(
      expected,
    );
  });

  it("lastUpdatedAtBetween is a date range on the last update", async () => {
    const range = { from: "2020-01-01", to: "2021-12-31" };
    expectSubset(
      await filtered({ lastUpdatedAtBetween: range }),
      idsOf(all.filter((r) => r.lastUpdatedAt.slice(0, 10) >= range.from && r.lastUpdatedAt.slice(0, 10) <= range.to)),
    );
  });
});

describe("EmployeeAttributeSort", () => {
  async function sorted(sort: string[], filter: Record<string, unknown> = {}): Promise<Row[]> {
    const data = await query(stack, `query($sort: [EmployeeAttributeSort!], $filter: EmployeeAttributeFilter) { employeeAttributes(first: 100, sort: $sort, filter: $filter) { nodes { ${ROW} } } }`, {
      sort,
      filter,
    });
    return data.employeeAttributes.nodes;
  }

  it("ID_ASC and ID_DESC order by id", async () => {
    const byId = [...all].sort(byNumericId).map((r) => r.id);
    expect((await sorted(["ID_ASC"])).map((r) => r.id)).toEqual(byId.slice(0, 100));
    expect((await sorted(["ID_DESC"])).map((r) => r.id)).toEqual([...byId].reverse().slice(0, 100));
  });

  it("CREATED_AT_ASC and CREATED_AT_DESC order by creation time", async () => {
    const times = all.map((r) => r.createdAt).sort();
    expect((await sorted(["CREATED_AT_ASC"])).map((r) => r.createdAt)).toEqual(times.slice(0, 100));
    expect((await sorted(["CREATED_AT_DESC"])).map((r) => r.createdAt)).toEqual([...times].reverse().slice(0, 100));
  });

  it("VALUE_ASC and VALUE_DESC order numbers by value", async () => {
    const filter = { definitionIds: ["employee.commuteDistanceKm"] };
    const values = all.filter((r) => r.definition.id === "employee.commuteDistanceKm").map((r) => r.value as number).sort((a, b) => a - b);
    expect((await sorted(["VALUE_ASC"], filter)).map((r) => r.value)).toEqual(values.slice(0, 100));
    expect((await sorted(["VALUE_DESC"], filter)).map((r) => r.value)).toEqual([...values].reverse().slice(0, 100));
  });

  it("DEFINITION_ID_ASC and DEFINITION_ID_DESC order by definition id", async () => {
    const defs = all.map((r) => r.definition.id).sort();
    expect((await sorted(["DEFINITION_ID_ASC"])).map((r) => r.definition.id)).toEqual(defs.slice(0, 100));
    expect((await sorted(["DEFINITION_ID_DESC"])).map((r) => r.definition.id)).toEqual([...defs].reverse().slice(0, 100));
  });
});
