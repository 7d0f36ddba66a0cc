import { beforeAll, describe, expect, test } from "vitest";
import type { Company, Employee } from "../../directory/data/model.js";
import { API_VERSION, directoryToken } from "./current-helpers.js";
import { AUTH, TODAY, startLegacy, useLegacy } from "./legacy-helpers.js";

const ALL_FIELDS = [
  "id", "name", "displayName", "url", "modifiedAt", "firstName", "lastName", "login", "mail", "dtContractStart",
  "dtContractEnd", "birthDate", "employeeNumber", "calendarId", "calendar", "cultureID", "culture", "picture",
  "legalEntityId", "legalEntity", "departmentId", "department", "managerId", "manager", "manager2Id", "manager2",
  "rolePrincipalId", "rolePrincipal", "habilitedRoles", "userWorkCycles", "extendedData", "applicationData",
  "userAxisValues_2", "allowsElectronicPayslip", "bankName", "rib", "iban", "bic", "frenchCarTaxHorsePower",
  "frenchMotocyclesTaxHorsePower", "cspId", "address", "directLine", "jobTitle", "personalEmail", "personalMobile",
  "professionalMobile", "quote", "gender", "nationalityId", "unitSellPrice",
].join(",");

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

const api = useLegacy();
let company: Company;

beforeAll(async () => {
  company = api.directory.company;
});

const full = async (id: number) => (await api.get(`/api/v3/users/${id}?fields=${ALL_FIELDS}`)).body.data;

/** Employees with one employment holding one job position: their applicable records are unambiguous. */
function simpleActiveEmployees(): Employee[] {
  return company.employees.filter((e) => {
    const employments = company.employments.filter((x) => x.employeeId === e.id);
    if (employments.length !== 1) return false;
    const [employment] = employments;
    if (employment!.startDate > TODAY || (employment!.endDate !== null && employment!.endDate < TODAY)) return false;
    return company.jobPositions.filter((p) => p.employmentId === employment!.id).length === 1;
  });
}

describe("API key", () => {
  test("a request without Authorization is a 401 with a legacy error body", async () => {
    const res = await api.get("/api/v3/users/1", {});
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, message: expect.stringContaining("Authorization") });
  });

  test("an unknown API key is a 401", async () => {
    const res = await api.get("/api/v3/users/1", { authorization: "service application=not-the-key" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 401, message: "Unknown API key." });
  });

  test("a bearer token is not an API key", async () => {
    const res = await api.get("/api/v3/users/1", { authorization: "Bearer demo-api-key" });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("service application=");
  });

  test("every legacy route asks for the API key", async () => {
    const paths = [
      "/api/v3/users?id=1",
      "/directory/api/4.0/work-contracts/1",
      "/directory/api/4.0/work-contracts",
      "/organization/structure/api/establishments",
      "/api/v3/timeentries?ownerId=1",
      "/api/v3/timeentries/10001",
      "/api/v3/axisSections",
      "/api/v3/axisSections/1",
    ];
    const statuses = await Promise.all(paths.map(async (p) => (await api.get(p, {})).status));
    expect(statuses).toEqual(paths.map(() => 401));
    const puts = await Promise.all(
      ["/api/v3/users/1", "/api/v3/timeentries/10001", "/api/v3/axisSections/1"].map(async (p) => (await api.put(p, {}, {})).status),
    );
    expect(puts).toEqual([401, 401, 401]);
  });
});

describe("GET /api/v3/users/{id}", () => {
  test("without fields a user is its id, name and url in a data wrapper", async () => {
    const e = company.employees[4]!;
    const res = await api.get(`/api/v3/users/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { id: Number(e.id), name: `${e.givenName} ${e.familyName}`, url: `${api.directory.url}/api/v3/users/${e.id}` },
    });
  });

  test("fields selects the user fields and always adds the id", async () => {
    const e = company.employees[4]!;
    const res = await api.get(`/api/v3/users/${e.id}?fields=firstName,lastName,mail`);
    expect(res.body.data).toEqual({ id: Number(e.id), firstName: e.givenName, lastName: e.familyName, mail: e.email });
  });

  test("every field of the user table can be asked for", async () => {
    const user = await full(5);
    expect(Object.keys(user).sort()).toEqual(ALL_FIELDS.split(",").sort());
  });

  test("extended data comes only with fields=extendedData, as e_ keys holding {value}", async () => {
    const without = (await api.get("/api/v3/users/5?fields=id,name")).body.data;
    expect(without).not.toHaveProperty("extendedData");
    const withIt = (await api.get("/api/v3/users/5?fields=extendedData")).body.data;
    expect(Object.keys(withIt)).toEqual(["id", "extendedData"]);
    for (const [key, entry] of Object.entries(withIt.extendedData)) {
      expect(key).toMatch(/^e_/);
      expect(Object.keys(entry as object)).toEqual(["value"]);
    }
  });

  test("unitSellPrice is requestable, on one user and on the list, and is null (legacy, not to be used)", async () => {
    const one = await api.get("/api/v3/users/5?fields=unitSellPrice");
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ id: 5, unitSellPrice: null });
    // like every field but id, it is written only when asked for
    expect((await api.get("/api/v3/users/5?fields=name")).body.data).not.toHaveProperty("unitSellPrice");
    const list = await api.get("/api/v3/users?fields=id,unitSellPrice,collection.count&formerEmployees=true");
    expect(list.status).toBe(200);
    expect(list.body.data.items).toHaveLength(list.body.data.count);
    expect(list.body.data.items.every((u: any) => Object.keys(u).join() === "id,unitSellPrice" && u.unitSellPrice === null)).toBe(true);
  });

  test("date-times carry no offset", async () => {
    const user = await full(5);
    for (const name of ["modifiedAt", "dtContractStart", "birthDate"]) expect(user[name]).toMatch(LOCAL_DATE_TIME);
    for (const cycle of user.userWorkCycles) expect(cycle.startsOn).toMatch(LOCAL_DATE_TIME);
  });

  test("department, manager, legal entity and job title come from the applicable job position", async () => {
    const e = simpleActiveEmployees().find((x) => company.jobPositions.find((p) => p.employeeId === x.id)!.managerId !== null)!;
    const position = company.jobPositions.find((p) => p.employeeId === e.id)!;
    const establishment = company.businessEstablishments.find((b) => b.id === position.businessEstablishmentId)!;
    const manager = company.employees.find((m) => m.id === position.managerId)!;
    const user = await full(Number(e.id));
    expect(user.departmentId).toBe(Number(position.departmentId));
    expect(user.department.id).toBe(Number(position.departmentId));
    expect(user.managerId).toBe(Number(manager.id));
    expect(user.manager).toEqual({ id: Number(manager.id), name: `${manager.givenName} ${manager.familyName}`, url: `${api.directory.url}/api/v3/users/${manager.id}` });
    expect(user.legalEntityId).toBe(Number(establishment.legalEntityId));
    expect(user.jobTitle).toBe(position.jobTitle);
    expect(user.cspId).toBe(Number(position.occupationCategoryId));
  });

  test("contract dates come from the applicable employment, not from an earlier or later one", async () => {
    const e = company.employees.find((x) => {
      const employments = company.employments.filter((m) => m.employeeId === x.id);
      return employments.length > 1 && employments.some((m) => m.startDate <= TODAY && (m.endDate === null || m.endDate >= TODAY));
    })!;
    const current = company.employments.find((m) => m.employeeId === e.id && m.startDate <= TODAY && (m.endDate === null || m.endDate >= TODAY))!;
    const user = await full(Number(e.id));
    expect(user.dtContractStart).toBe(`${current.startDate}T00:00:00`);
    expect(user.dtContractEnd).toBe(current.endDate === null ? null : `${current.endDate}T00:00:00`);
  });

  test("birth date, gender, nationality and bank account come from the personal record", async () => {
    const record = company.personalRecords.find((r) => r.bankAccount.format === "iban" && r.bankAccount.accountIdentifier.startsWith("FR") && r.legalGender === "female")!;
    const user = await full(Number(record.employeeId));
    expect(user.birthDate).toBe(`${record.birthDate}T00:00:00`);
    expect(user.gender).toBe("Female");
    expect(user.nationalityId).toHaveLength(2);
    expect(user.bankName).toBe(record.bankAccount.bankName);
    expect(user.iban).toBe(record.bankAccount.accountIdentifier);
    expect(user.bic).toBe(record.bankAccount.bankIdentifier);
    expect(user.rib).toBe(record.bankAccount.accountIdentifier.slice(4));
  });

  test("a user's work cycles never overlap", async () => {
    const ids = company.employees.slice(0, 100).map((e) => e.id).join(",");
    const users = (await api.get(`/api/v3/users?id=${ids}&fields=userWorkCycles`)).body.data.items;
    let multi = 0;
    for (const user of users) {
      const cycles = [...user.userWorkCycles].sort((a: any, b: any) => a.startsOn.localeCompare(b.startsOn));
      if (cycles.length > 1) multi++;
      for (let i = 1; i < cycles.length; i++) {
        expect(cycles[i - 1].endsOn).not.toBeNull();
        expect(cycles[i - 1].endsOn < cycles[i].startsOn).toBe(true);
      }
    }
    expect(multi).toBeGreaterThan(0);
  });

  test("the values only the legacy API knows are the same in another run of the service", async () => {
    const other = await startLegacy();
    try {
      const fields = "calendarId,cultureID,rolePrincipalId,habilitedRoles,userWorkCycles,extendedData,applicationData,userAxisValues_2";
      const a = (await api.get(`/api/v3/users/12?fields=${fields}`)).body.data;
      const b = (await other.get(`/api/v3/users/12?fields=${fields}`)).body.data;
      expect(JSON.parse(JSON.stringify(b).replaceAll(other.directory.url, api.directory.url))).toEqual(a);
    } finally {
      await other.close();
    }
  });

  test("an unknown field in fields is a 400 that names it", async () => {
    const res = await api.get("/api/v3/users/5?fields=firstName,shoeSize");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.stringContaining("shoeSize") });
  });

  test("an empty entry in fields is a 400", async () => {
    expect((await api.get("/api/v3/users/5?fields=firstName,,lastName")).status).toBe(400);
  });

  test("an unknown user is a 404", async () => {
    const res = await api.get("/api/v3/users/999999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: expect.stringContaining("999999") });
  });

  test("an id that is not an integer >= 1 is a 400", async () => {
    expect((await api.get("/api/v3/users/abc")).status).toBe(400);
    expect((await api.get("/api/v3/users/0")).status).toBe(400);
  });

  test("an unknown query parameter is a 400", async () => {
    const res = await api.get("/api/v3/users/5?field=firstName");
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("field");
  });
});

describe("GET /api/v3/users", () => {
  test("answers the requested users in data.items, ordered by id, with the asked fields", async () => {
    const res = await api.get("/api/v3/users?id=7,3,5&fields=firstName");
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((u: any) => u.id)).toEqual([3, 5, 7]);
    expect(Object.keys(res.body.data.items[0])).toEqual(["id", "firstName"]);
  });

  test("unknown ids are left out", async () => {
    const res = await api.get("/api/v3/users?id=2,999999");
    expect(res.body.data.items.map((u: any) => u.id)).toEqual([2]);
  });

  test("more than 100 ids is a 400", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    const res = await api.get(`/api/v3/users?id=${ids}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("100");
  });

  test("exactly 100 ids is allowed", async () => {
    const ids = Array.from({ length: 100 }, (_, i) => i + 1).join(",");
    const res = await api.get(`/api/v3/users?id=${ids}&formerEmployees=true`);
    expect(res.status).toBe(200);
    expect(res.body.data.items).toHaveLength(100);
  });

  test("without id the list pages every current user; former employees only when asked", async () => {
    const current = (await api.get("/api/v3/users?fields=id,dtContractEnd")).body.data.items;
    const all = (await api.get("/api/v3/users?fields=id,dtContractEnd&formerEmployees=true")).body.data.items;
    expect(all).toHaveLength(300);
    const former = all.filter((u: any) => u.dtContractEnd !== null && u.dtContractEnd.slice(0, 10) < TODAY);
    expect(former.length).toBeGreaterThan(0);
    expect(current).toHaveLength(300 - former.length);
  });

  test("an id list with a bad entry is a 400", async () => {
    expect((await api.get("/api/v3/users?id=1,x")).status).toBe(400);
  });

  test("fields=collection.count counts the matching users; beside item fields it adds count to the page", async () => {
    const all = (await api.get("/api/v3/users?fields=id&formerEmployees=true")).body.data.items;
    expect((await api.get("/api/v3/users?fields=collection.count&formerEmployees=true")).body).toEqual({ data: { count: all.length } });
    const res = await api.get("/api/v3/users?fields=id,collection.count&formerEmployees=true&paging=0,2");
    expect(res.body.data).toEqual({ items: all.slice(0, 2), count: all.length });
  });

  test("a collection field other than collection.count is a 400 naming it", async () => {
    const res = await api.get("/api/v3/users?fields=collection.total");
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("collection.count");
  });
});

describe("PUT /api/v3/users/{id}", () => {
  test("applies the writable fields, answers the user and updates modifiedAt", async () => {
    const before = await full(20);
    const res = await api.put("/api/v3/users/20?fields=calendarId,cultureID,gender,nationalityId,modifiedAt,extendedData,userAxisValues_2", {
      calendarId: 3,
      cultureID: 2057,
      gender: "Male",
      nationalityId: "GB",
      e_shirtSize: { value: "XL" },
      userAxisValues_2: { id: 8 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ calendarId: 3, cultureID: 2057, gender: "Male", nationalityId: "GB", userAxisValues_2: { id: 8, axisId: 2 } });
    expect(res.body.data.extendedData).toEqual({ ...before.extendedData, e_shirtSize: { value: "XL" } });
    expect(res.body.data.modifiedAt).not.toBe(before.modifiedAt);
    expect(res.body.data.modifiedAt.startsWith(TODAY)).toBe(true);
    const after = await full(20);
    expect(after).toMatchObject(res.body.data);
    expect(after.calendar.id).toBe(3);
    expect(after.culture.id).toBe(2057);
    expect(after.firstName).toBe(before.firstName);
    expect(after.departmentId).toBe(before.departmentId);
  });

  test("firstName, lastName, mail and employeeNumber are written through to the current API's employee", async () => {
    const res = await api.put("/api/v3/users/21", { firstName: "Renée", lastName: "Legacy-Writer", mail: "renee.writer@lumiere-systems.example", employeeNumber: "X-21" });
    expect(res.status).toBe(200);
    const token = await directoryToken(api.directory.url);
    const current = await fetch(`${api.directory.url}/service-api/employees/21`, { headers: { authorization: `Bearer ${token}`, "api-version": API_VERSION } });
    const employee = (await current.json()) as Record<string, unknown>;
    expect(employee).toMatchObject({ givenName: "Renée", familyName: "Legacy-Writer", email: "renee.writer@lumiere-systems.example", employeeNumber: "X-21" });
  });

  test("a PUT of departmentId moves the user: its read names the new department (the legacy departments' lists are gone)", async () => {
    const user = await full(22);
    const target = company.departments.find((d) => Number(d.id) !== user.departmentId)!;
    expect((await api.put("/api/v3/users/22", { departmentId: Number(target.id) })).status).toBe(200);
    const moved = await full(22);
    expect(moved.departmentId).toBe(Number(target.id));
    expect(moved.department).toMatchObject({ id: Number(target.id), name: target.name });
  });

  test("userWorkCycles replaces the periods and numbers the new ones", async () => {
    const res = await api.put("/api/v3/users/23?fields=userWorkCycles", {
      userWorkCycles: [
        { workCycleID: 2, startsOn: "2025-01-01T00:00:00", endsOn: "2025-06-30T00:00:00" },
        { workCycleID: 3, startsOn: "2025-07-01T00:00:00", endsOn: null },
      ],
    });
    expect(res.status).toBe(200);
    const cycles = res.body.data.userWorkCycles;
    expect(cycles.map((c: any) => [c.workCycleID, c.startsOn, c.endsOn, c.ownerID])).toEqual([
      [2, "2025-01-01T00:00:00", "2025-06-30T00:00:00", 23],
      [3, "2025-07-01T00:00:00", null, 23],
    ]);
    expect(cycles[0].id).toBeGreaterThanOrEqual(1);
    expect(cycles[1].id).not.toBe(cycles[0].id);
  });

  test("null clears the nullable fields", async () => {
    const res = await api.put("/api/v3/users/24?fields=calendarId,managerId,bankName,iban,frenchCarTaxHorsePower,dtContractEnd", {
      calendarId: null,
      managerId: null,
      bankName: null,
      iban: null,
      frenchCarTaxHorsePower: null,
      dtContractEnd: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: 24, calendarId: null, managerId: null, bankName: null, iban: null, frenchCarTaxHorsePower: null, dtContractEnd: null });
  });

  test("an unknown user is a 404", async () => {
    expect((await api.put("/api/v3/users/999999", { firstName: "X" })).status).toBe(404);
  });

  test("a body that is not JSON is a 400 with a legacy error body", async () => {
    const res = await fetch(`${api.directory.url}/api/v3/users/25`, { method: "PUT", headers: { ...AUTH, "content-type": "application/json" }, body: "{nope" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 400, message: expect.any(String) });
  });

  const employeeRecord = (id: string) => JSON.stringify(company.employees.find((e) => e.id === id));

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown field", { shoeSize: 42 }, "shoeSize"],
    ["an empty firstName", { firstName: "" }, "firstName"],
    ["a firstName that is not a string", { firstName: 12 }, "firstName"],
    ["a mail that is no address", { mail: "not-an-email" }, "mail"],
    ["a legalEntityId below 1", { legalEntityId: 0 }, "legalEntityId"],
    ["an unknown legal entity", { legalEntityId: 999 }, "legalEntityId"],
    ["a departmentId given as a string", { departmentId: "3" }, "departmentId"],
    ["an unknown department", { departmentId: 9999 }, "departmentId"],
    ["the user as their own manager", { managerId: 30 }, "managerId"],
    ["an unknown manager", { managerId: 999999 }, "managerId"],
    ["the user as their own second manager", { manager2Id: 30 }, "manager2Id"],
    ["a cultureID below 1025", { cultureID: 1024 }, "cultureID"],
    ["a cultureID above 65535", { cultureID: 70000 }, "cultureID"],
    ["an unsupported culture", { cultureID: 5000 }, "cultureID"],
    ["an alpha-3 nationality", { nationalityId: "FRA" }, "nationalityId"],
    ["a nationality that is no country", { nationalityId: "XX" }, "nationalityId"],
    ["a gender outside the enum", { gender: "male" }, "gender"],
    ["an unknown principal role", { rolePrincipalId: 99 }, "rolePrincipalId"],
    ["a secondary role listed twice", { habilitedRoles: [{ id: 6 }, { id: 6 }] }, "habilitedRoles"],
    ["a secondary role id below 1", { habilitedRoles: [{ id: 0 }] }, "habilitedRoles"],
    ["a calendarId below 1", { calendarId: 0 }, "calendarId"],
    ["an unknown socio-professional category", { cspId: 999 }, "cspId"],
    ["a date-time with an offset", { dtContractStart: "2020-01-01T00:00:00Z" }, "dtContractStart"],
    ["a contract end before its start", { dtContractStart: "2020-01-01T00:00:00", dtContractEnd: "2019-01-01T00:00:00" }, "dtContractEnd"],
    ["a birth date in the future", { birthDate: "2030-01-01T00:00:00" }, "birthDate"],
    [
      "overlapping work cycles",
      { userWorkCycles: [{ workCycleID: 1, startsOn: "2024-01-01T00:00:00", endsOn: "2024-12-31T00:00:00" }, { workCycleID: 2, startsOn: "2024-06-01T00:00:00", endsOn: null }] },
      "overlaps",
    ],
    ["an open work cycle followed by another", { userWorkCycles: [{ workCycleID: 1, startsOn: "2024-01-01T00:00:00", endsOn: null }, { workCycleID: 2, startsOn: "2025-01-01T00:00:00", endsOn: null }] }, "overlaps"],
    ["an unknown work cycle", { userWorkCycles: [{ workCycleID: 42, startsOn: "2024-01-01T00:00:00", endsOn: null }] }, "workCycleID"],
    ["a work cycle of another owner", { userWorkCycles: [{ ownerID: 31, workCycleID: 1, startsOn: "2024-01-01T00:00:00", endsOn: null }] }, "ownerID"],
    ["an unknown extended field", { e_shoeSize: { value: 42 } }, "e_shoeSize"],
    ["an extended value of the wrong type", { e_remoteDaysPerWeek: { value: "three" } }, "e_remoteDaysPerWeek"],
    ["an extended entry without {value}", { e_shirtSize: "M" }, "e_shirtSize"],
    ["an unknown leave profile", { profile_leave: { id: 99 } }, "profile_leave"],
    ["a default section outside axis 2", { userAxisValues_2: { id: 1 } }, "userAxisValues_2"],
    ["an IBAN with wrong check digits", { iban: "FR7630006000011234567890188" }, "iban"],
    ["a malformed BIC", { bic: "xx" }, "bic"],
    ["a malformed RIB", { rib: "123" }, "rib"],
    ["a horsepower of 0", { frenchCarTaxHorsePower: 0 }, "frenchCarTaxHorsePower"],
    ["a horsepower that is not an integer", { frenchMotocyclesTaxHorsePower: 2.5 }, "frenchMotocyclesTaxHorsePower"],
    ["a payslip consent that is not a boolean", { allowsElectronicPayslip: "yes" }, "allowsElectronicPayslip"],
    ["a personal email that is no address", { personalEmail: "nope" }, "personalEmail"],
    ["a mobile number with letters", { professionalMobile: "call me" }, "professionalMobile"],
    ["an id that differs from the path", { id: 31, firstName: "X" }, "id"],
    ["a valid field beside an invalid one", { firstName: "Valid", cultureID: 1 }, "cultureID"],
  ];

  test.each(bad)("%s is a 400 that changes nothing", async (_name, body, mentioned) => {
    const before = await full(30);
    const record = employeeRecord("30");
    const res = await api.put("/api/v3/users/30", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.stringContaining(mentioned) });
    expect(await full(30)).toEqual(before);
    expect(employeeRecord("30")).toBe(record);
  });

  test("an employee number already used in the same legal entity is a 400 that changes nothing", async () => {
    const user = await full(30);
    const users = (await api.get(`/api/v3/users?id=${company.employees.slice(0, 100).map((e) => e.id).join(",")}&fields=legalEntityId,employeeNumber`)).body.data.items;
    const colleague = users.find((u: any) => u.id !== 30 && u.legalEntityId === user.legalEntityId)!;
    const res = await api.put("/api/v3/users/30", { employeeNumber: colleague.employeeNumber });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("employeeNumber");
    expect(await full(30)).toEqual(user);
  });

  test("a body that is an array is a 400", async () => {
    const res = await api.put("/api/v3/users/30", [{ firstName: "X" }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("JSON object");
  });
});
