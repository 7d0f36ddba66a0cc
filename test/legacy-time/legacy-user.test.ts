import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { employees, entitiesQuery, legacyGet } from "./helpers.js";

/** updateLegacyUser: a partial write of the legacy user, answered with the Employee. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});

const UPDATE = `mutation($id: ID!, $input: LegacyUserInput!) {
  updateLegacyUser(id: $id, input: $input) {
    __typename
    ... on Employee { id legacyUser { login calendar { id } jobTitle manager { id } extendedData { key value } frenchMotorcycleTaxHorsePower workCycles { workCycleId startsAt endsAt } habilitedRoles { id } } }
    ... on MutationError { message fields }
  }
}`;

function update(id: string, input: Record<string, unknown>) {
  return stack.gql(url, UPDATE, { id, input });
}

async function user(id: string, fields: string) {
  return (await legacyGet(stack, `/api/v3/users/${id}?fields=${fields}`)).data;
}

describe("updateLegacyUser", () => {
  it("writes the given fields and answers the employee with its new legacy user", async () => {
    const before = await user("5", "login,calendarId,jobTitle,extendedData,managerId");
    const res = await update("5", {
      login: "new.login",
      jobTitle: null,
      frenchMotorcycleTaxHorsePower: 3,
      extendedData: [{ key: "e_shirtSize", value: "XL" }, { key: "e_remoteDaysPerWeek", value: 2 }],
      habilitedRoleIds: [6, 7],
    });
    expect(res.errors).toBeUndefined();
    const result = res.data.updateLegacyUser;
    expect(result).toMatchObject({
      __typename: "Employee",
      id: "5",
      legacyUser: {
        login: "new.login",
        jobTitle: null,
        frenchMotorcycleTaxHorsePower: 3,
        calendar: before.calendarId === null ? null : { id: before.calendarId },
        manager: before.managerId === null ? null : { id: String(before.managerId) },
        habilitedRoles: [{ id: 6 }, { id: 7 }],
      },
    });
    expect(result.legacyUser.extendedData).toEqual(
      expect.arrayContaining([
        { key: "e_shirtSize", value: "XL" },
        { key: "e_remoteDaysPerWeek", value: 2 },
        { key: "e_badgeNumber", value: before.extendedData.e_badgeNumber.value },
      ]),
    );
    const after = await user("5", "login,jobTitle,extendedData");
    expect(after).toMatchObject({ login: "new.login", jobTitle: null, extendedData: { e_shirtSize: { value: "XL" } } });
  });

  it("costs the write alone: the answer serves the new legacy user", async () => {
    stack.resetStats();
    const res = await update("6", { quote: "Carpe diem" });
    expect(res.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "PUT /api/v3/users/{id}": 1 });
  });

  it("writes the references given by id: legal entity, primary role, leave profile and axis-2 section, and clears the section with null", async () => {
    const users = (await legacyGet(stack, `/api/v3/users?id=${Array.from({ length: 40 }, (_, i) => i + 1).join(",")}&fields=legalEntityId`)).data.items as any[];
    const before = await user("10", "legalEntityId,rolePrincipalId,applicationData,userAxisValues_2");
    const legalEntityId = users.map((u) => u.legalEntityId).find((id) => id !== null && id !== before.legalEntityId);
    const rolePrincipalId = before.rolePrincipalId === 3 ? 4 : 3;
    const leaveProfileId = before.applicationData.profile_leave.id === 7 ? 1 : 7;
    const sections = (await legacyGet(stack, "/api/v3/axisSections?axisId=2")).data.items as any[];
    const section = sections.find((s) => s.id !== before.userAxisValues_2?.id)!;
    const selection = `__typename ... on Employee { legacyUser { legalEntity { id } rolePrincipal { id } leaveProfile { id } axisValue2 { id axisId } } }`;

    const set = await stack.gql(url, `mutation($input: LegacyUserInput!) { updateLegacyUser(id: "10", input: $input) { ${selection} } }`, {
      input: { legalEntityId, rolePrincipalId, leaveProfileId, axisValue2Id: String(section.id) },
    });
    expect(set.errors).toBeUndefined();
    expect(set.data.updateLegacyUser.legacyUser).toEqual({
      legalEntity: { id: legalEntityId },
      rolePrincipal: { id: rolePrincipalId },
      leaveProfile: { id: leaveProfileId },
      axisValue2: { id: String(section.id), axisId: 2 },
    });
    expect(await user("10", "legalEntityId,rolePrincipalId,userAxisValues_2")).toMatchObject({ legalEntityId, rolePrincipalId, userAxisValues_2: { id: section.id } });

    const cleared = await stack.gql(url, `mutation { updateLegacyUser(id: "10", input: { axisValue2Id: null }) { ${selection} } }`);
    expect(cleared.data.updateLegacyUser.legacyUser.axisValue2).toBeNull();
  });

  it("refuses an id that cannot be an employee's before any upstream call", async () => {
    stack.resetStats();
    const res = await update("8", { managerId: "not-an-id" });
    expect(res.data.updateLegacyUser).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("managerId"), fields: ["managerId"] });
    expect(stack.stats().total).toBe(0);
  });

  it("takes a birth date as a Date, writes it as that day at midnight and reads it back as the same Date", async () => {
    const res = await stack.gql(url, `mutation { updateLegacyUser(id: "6", input: { birthDate: "1990-02-03" }) { ... on Employee { legacyUser { birthDate } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.updateLegacyUser.legacyUser.birthDate).toBe("1990-02-03");
    expect((await user("6", "birthDate")).birthDate).toBe("1990-02-03T00:00:00");
  });

  it("replaces the work cycles with the periods given", async () => {
    const res = await update("7", {
      workCycles: [
        { workCycleId: 1, startsAt: "2024-01-01T00:00:00", endsAt: "2024-12-31T00:00:00" },
        { workCycleId: 3, startsAt: "2025-01-01T00:00:00" },
      ],
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateLegacyUser.legacyUser.workCycles).toEqual([
      { workCycleId: 1, startsAt: "2024-01-01T00:00:00", endsAt: "2024-12-31T00:00:00" },
      { workCycleId: 3, startsAt: "2025-01-01T00:00:00", endsAt: null },
    ]);
  });

  it("returns a refusal as an InvalidInputError naming the input field, and writes nothing", async () => {
    const before = await user("8", "login,iban");
    const res = await update("8", { login: "changed.too", iban: "FR00 1234" });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateLegacyUser).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("iban"), fields: ["iban"] });
    expect(await user("8", "login,iban")).toEqual(before);
  });

  it("maps the legacy names of a refusal back to the input's names", async () => {
    const res = await update("8", { frenchMotorcycleTaxHorsePower: 99, cultureId: 1 });
    expect(res.data.updateLegacyUser.__typename).toBe("InvalidInputError");
    expect(res.data.updateLegacyUser.fields.sort()).toEqual(["cultureId", "frenchMotorcycleTaxHorsePower"]);
  });

  it("names extendedData when an extended entry is refused", async () => {
    const res = await update("8", { extendedData: [{ key: "e_remoteDaysPerWeek", value: "many" }] });
    expect(res.data.updateLegacyUser).toMatchObject({ __typename: "InvalidInputError", fields: ["extendedData"] });
  });

  it("refuses null for a field that cannot be cleared, before any upstream call", async () => {
    stack.resetStats();
    const res = await update("8", { login: null });
    expect(res.data.updateLegacyUser).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("login"), fields: ["login"] });
    expect(stack.stats().total).toBe(0);
  });

  it("refuses an extended-data key without the e_ prefix", async () => {
    const res = await update("8", { extendedData: [{ key: "shirtSize", value: "M" }] });
    expect(res.data.updateLegacyUser).toMatchObject({ __typename: "InvalidInputError", fields: ["extendedData"] });
  });

  it("refuses an input that changes nothing", async () => {
    const res = await update("8", {});
    expect(res.data.updateLegacyUser).toMatchObject({ __typename: "InvalidInputError", fields: [] });
  });

  it("answers a NotFoundError, as data, for an employee without legacy user", async () => {
    const res = await update("999999", { login: "ghost" });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateLegacyUser).toMatchObject({ __typename: "NotFoundError", fields: ["id"] });
  });

  it("is visible to a later request", async () => {
    await update("9", { directLine: "+33 1 23 45 67 89" });
    const res = await stack.gql(url, entitiesQuery("Employee", "legacyUser { directLine }"), { r: employees([9]) });
    expect(res.data._entities[0].legacyUser.directLine).toBe("+33 1 23 45 67 89");
  });
});
