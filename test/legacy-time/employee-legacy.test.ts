import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { OPEN_WEEK, employees, entitiesQuery, legacyGet, range } from "./helpers.js";

/** The legacy fields contributed to Employee: profile, work contracts, time entries. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});

async function employee(id: string | number, selection: string, vars: Record<string, unknown> = {}, varDefs = "") {
  const res = await stack.gql(url, entitiesQuery("Employee", selection, varDefs), { r: employees([id]), ...vars });
  return res;
}

const PROFILE = `legacyUser {
  name displayName modifiedAt firstName lastName login mail contractStartsAt contractEndsAt birthDate employeeNumber
  calendar { id name } culture { id name } picture { id name href } legalEntity { id name }
  department { id } manager { id } manager2 { id } rolePrincipal { id name } habilitedRoles { id name }
  workCycles { id workCycleId startsAt endsAt } extendedData { key value } leaveProfile { id name }
  axisValue2 { id axisId code } allowsElectronicPayslip bankAccount { bankName rib iban bic }
  frenchCarTaxHorsePower frenchMotorcycleTaxHorsePower socioProfessionalCategoryId address directLine jobTitle
  personalEmail personalMobile professionalMobile quote gender nationalityCode
}`;

describe("Employee.legacyUser", () => {
  it("carries every field of the legacy user, renamed where the REST name reads badly", async () => {
    const fields = [
      "name", "displayName", "modifiedAt", "firstName", "lastName", "login", "mail", "dtContractStart", "dtContractEnd", "birthDate",
      "employeeNumber", "calendar", "culture", "picture", "legalEntity", "departmentId", "managerId", "manager2Id", "rolePrincipal",
      "habilitedRoles", "userWorkCycles", "extendedData", "applicationData", "userAxisValues_2", "allowsElectronicPayslip", "bankName",
      "rib", "iban", "bic", "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "cspId", "address", "directLine", "jobTitle",
      "personalEmail", "personalMobile", "professionalMobile", "quote", "gender", "nationalityId",
    ];
    // an employee with a manager, so that the references are exercised
    const ids = range(2, 40);
    const users = (await legacyGet(stack, `/api/v3/users?formerEmployees=true&id=${ids.join(",")}&fields=${fields.join(",")}`)).data.items as any[];
    const user = users.find((u) => u.managerId !== null && u.manager2Id !== null && u.habilitedRoles.length > 0)!;
    expect(user).toBeDefined();

    const res = await employee(user.id, PROFILE);
    expect(res.errors).toBeUndefined();
    const p = res.data._entities[0].legacyUser;
    expect(p).toEqual({
      name: user.name,
      displayName: user.displayName,
      modifiedAt: user.modifiedAt,
      firstName: user.firstName,
      lastName: user.lastName,
      login: user.login,
      mail: user.mail,
      contractStartsAt: user.dtContractStart,
      contractEndsAt: user.dtContractEnd,
      birthDate: user.birthDate?.slice(0, 10) ?? null,
      employeeNumber: user.employeeNumber,
      calendar: user.calendar ? { id: user.calendar.id, name: user.calendar.name } : null,
      culture: { id: user.culture.id, name: user.culture.name },
      // a link of the facade to the picture, never the legacy API's address (docs/security.md#file-links)
      picture: { id: String(user.picture.id), name: user.picture.name, href: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\/[A-Za-z0-9_-]+$/) },
      legalEntity: user.legalEntity ? { id: user.legalEntity.id, name: user.legalEntity.name } : null,
      department: user.departmentId === null ? null : { id: String(user.departmentId) },
      manager: { id: String(user.managerId) },
      manager2: { id: String(user.manager2Id) },
      rolePrincipal: { id: user.rolePrincipal.id, name: user.rolePrincipal.name },
      habilitedRoles: user.habilitedRoles.map((r: any) => ({ id: r.id, name: r.name })),
      workCycles: user.userWorkCycles.map((c: any) => ({ id: c.id, workCycleId: c.workCycleID, startsAt: c.startsOn, endsAt: c.endsOn })),
      extendedData: Object.keys(user.extendedData)
        .sort()
        .map((key) => ({ key, value: user.extendedData[key].value })),
      leaveProfile: { id: user.applicationData.profile_leave.id, name: user.applicationData.profile_leave.name },
      axisValue2: user.userAxisValues_2 ? { id: String(user.userAxisValues_2.id), axisId: 2, code: expect.any(String) } : null,
      allowsElectronicPayslip: user.allowsElectronicPayslip,
      bankAccount: { bankName: user.bankName, rib: user.rib, iban: user.iban, bic: user.bic },
      frenchCarTaxHorsePower: user.frenchCarTaxHorsePower,
      frenchMotorcycleTaxHorsePower: user.frenchMotocyclesTaxHorsePower,
      socioProfessionalCategoryId: user.cspId,
      address: user.address,
      directLine: user.directLine,
      jobTitle: user.jobTitle,
      personalEmail: user.personalEmail,
      personalMobile: user.personalMobile,
      professionalMobile: user.professionalMobile,
      quote: user.quote,
      gender: user.gender.toUpperCase(),
      nationalityCode: user.nationalityId,
    });
  });

  it("is null, without error, for an id the legacy API has no user for", async () => {
    const res = await employee("999999", "legacyUser { name }");
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0]).toEqual({ legacyUser: null });
  });

  it("of 100 employees costs one users call, asking for the fields it reads", async () => {
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Employee", "id legacyUser { login culture { id } }"), { r: employees(range(1, 100)) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities.every((e: any) => e.legacyUser.login.length > 0)).toBe(true);
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/users": 1 });
  });
});

describe("Employee.workContracts and applicableWorkContract", () => {
  it("lists the employee's work contracts by start date", async () => {
    const contracts = (await legacyGet(stack, `/directory/api/4.0/work-contracts?ownerId=${range(1, 100).join(",")}&limit=1000`)).items as any[];
    const owner = contracts.find((c) => contracts.filter((d) => d.ownerId === c.ownerId).length > 1)?.ownerId ?? contracts[0].ownerId;
    const expected = contracts
      .filter((c) => c.ownerId === owner)
      .sort((a, b) => (a.startsOn < b.startsOn ? -1 : a.startsOn > b.startsOn ? 1 : a.id - b.id))
      .map((c) => String(c.id));

    const res = await employee(owner, "workContracts { id startsOn owner { id } }");
    expect(res.errors).toBeUndefined();
    const listed = res.data._entities[0].workContracts;
    expect(listed.map((c: any) => c.id)).toEqual(expected);
    expect(listed.every((c: any) => c.owner.id === String(owner))).toBe(true);
  });

  it("names the contract the legacy API marks applicable", async () => {
    const contracts = (await legacyGet(stack, `/directory/api/4.0/work-contracts?ownerId=3`)).items as any[];
    const applicable = contracts.find((c) => c.isApplicable);
    const res = await employee(3, "applicableWorkContract { id isApplicable }");
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0].applicableWorkContract).toEqual({ id: String(applicable.id), isApplicable: true });
  });

  it("are empty and null for an employee without contracts", async () => {
    const res = await employee("999999", "workContracts { id } applicableWorkContract { id }");
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0]).toEqual({ workContracts: [], applicableWorkContract: null });
  });

  it("of 100 employees cost one work-contract list call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Employee", "workContracts { id } applicableWorkContract { id }"), { r: employees(range(1, 100)) });
    expect(res.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /directory/api/4.0/work-contracts": 1 });
  });
});

const TIMESHEET = `timeEntries(from: $from, to: $to) {
  id startsAt duration durationMinutes unit creationSource comment { id content } timeTypeId
  timesheet { id startsOn endsOn status mode } owner { id }
  endsAt createdAt modifiedAt author { id } modifier { id } isTheoretical
  axisSections { id code name active parent { id code } }
}`;
const RANGE_VARS = ", $from: Date!, $to: Date!";

describe("Employee.timeEntries", () => {
  it("reads the week's entries of the legacy API, ordered by startsAt", async () => {
    const rest = (await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=2&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}&paging=0,1000`)).data
      .items as any[];
    expect(rest.length).toBeGreaterThan(0);
    const sheets = new Map(((await legacyGet(stack, `/api/v3/timmitimesheets?ownerId=2`)).data.items as any[]).map((t) => [t.id, t]));
    const statuses = ["OPEN", "SUBMITTED", "APPROVED", "REJECTED"];
    const res = await employee(2, TIMESHEET, OPEN_WEEK, RANGE_VARS);
    expect(res.errors).toBeUndefined();
    const entries = res.data._entities[0].timeEntries;
    const units = ["DAYS", "HOURS", "TIME"];
    const sources = ["WORK_CYCLE_FALLBACK", "QUICK_FILL", "MANUAL", "IMPORTED", "CLOCK_IN_OUT"];
    expect(entries.map((e: any) => e.id)).toEqual(rest.map((e) => String(e.id)));
    expect(entries.map((e: any) => e.startsAt)).toEqual([...entries.map((e: any) => e.startsAt)].sort());
    entries.forEach((e: any, i: number) => {
      const r = rest[i];
      expect(e).toMatchObject({
        startsAt: r.startsAt,
        duration: r.duration,
        unit: units[r.unit],
        creationSource: sources[r.creationSource],
        comment: r.comment ? { id: String(r.comment.id), content: r.comment.content } : null,
        timeTypeId: r.timeTypeId,
        timesheet: {
          id: String(r.timesheetId),
          startsOn: sheets.get(r.timesheetId).startsOn,
          endsOn: sheets.get(r.timesheetId).endsOn,
          status: statuses[sheets.get(r.timesheetId).status],
          mode: r.axisSections ? "ACTIVITY" : "ATTENDANCE",
        },
        owner: { id: "2" },
        endsAt: r.endsAt,
        createdAt: r.createdAt,
        modifiedAt: r.modifiedAt,
        author: { id: String(r.authorId) },
        modifier: { id: String(r.modifierId) },
        isTheoretical: false,
      });
      expect(e.axisSections.map((s: any) => s.id)).toEqual((r.axisSections ?? []).map((s: any) => String(s.id)));
    });
  });

  it("gives the duration in whole minutes beside the legacy string", async () => {
    const res = await employee(2, "timeEntries(from: $from, to: $to) { duration durationMinutes }", OPEN_WEEK, RANGE_VARS);
    for (const e of res.data._entities[0].timeEntries) {
      const [h, m] = e.duration.split(":").map(Number);
      expect(e.durationMinutes).toBe(h * 60 + m);
    }
  });

  it("shows each entry's axis sections as a cost centre > project > task chain", async () => {
    const res = await stack.gql(url, entitiesQuery("Employee", TIMESHEET, RANGE_VARS), { r: employees(range(1, 30)), ...OPEN_WEEK });
    expect(res.errors).toBeUndefined();
    const withSections = res.data._entities.flatMap((e: any) => e.timeEntries).filter((t: any) => t.axisSections.length > 1);
    expect(withSections.length).toBeGreaterThan(0);
    for (const entry of withSections) {
      const [root, ...rest] = entry.axisSections;
      expect(root.parent).toBeNull();
      rest.forEach((section: any, i: number) => expect(section.parent).toEqual({ id: entry.axisSections[i].id, code: entry.axisSections[i].code }));
    }
  });

  it("counts the last day whole: a one-day range holds that day's afternoon entries", async () => {
    const week = await employee(2, "timeEntries(from: $from, to: $to) { id startsAt }", OPEN_WEEK, RANGE_VARS);
    const afternoon = week.data._entities[0].timeEntries.find((e: any) => e.startsAt.slice(11) >= "12:00:00");
    expect(afternoon).toBeDefined();
    const day = afternoon.startsAt.slice(0, 10);
    const res = await employee(2, "timeEntries(from: $from, to: $to) { id startsAt }", { from: day, to: day }, RANGE_VARS);
    const ids = res.data._entities[0].timeEntries.map((e: any) => e.id);
    expect(ids).toContain(afternoon.id);
    expect(res.data._entities[0].timeEntries.every((e: any) => e.startsAt.startsWith(day))).toBe(true);
  });

  it("is empty for an employee without entries", async () => {
    const res = await employee("999999", "timeEntries(from: $from, to: $to) { id }", OPEN_WEEK, RANGE_VARS);
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0].timeEntries).toEqual([]);
  });

  it("refuses a range whose start is after its end with BAD_USER_INPUT, before any upstream call", async () => {
    stack.resetStats();
    const res = await employee(2, "timeEntries(from: $from, to: $to) { id }", { from: "2026-06-14", to: "2026-06-08" }, RANGE_VARS);
    // refused for the whole operation before it runs
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toMatch(/from/);
    expect(stack.stats().total).toBe(0);
  });

  it("accepts a range of more than 93 days (the list is bounded by entries, time-entry-connection.test.ts)", async () => {
    const res = await employee(2, "timeEntries(from: $from, to: $to) { id }", { from: "2026-01-01", to: "2026-06-15" }, RANGE_VARS);
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0].timeEntries.length).toBeGreaterThan(0);
  });

  it("of 100 employees for a week cost as many upstream calls as those of 10", async () => {
    const query = entitiesQuery("Employee", TIMESHEET, RANGE_VARS);
    stack.resetStats();
    const hundred = await stack.gql(url, query, { r: employees(range(1, 100)), ...OPEN_WEEK });
    const callsFor100 = stack.stats();
    stack.resetStats();
    const ten = await stack.gql(url, query, { r: employees(range(1, 10)), ...OPEN_WEEK });
    const callsFor10 = stack.stats();

    expect(hundred.errors).toBeUndefined();
    expect(ten.errors).toBeUndefined();
    const entries = hundred.data._entities.reduce((n: number, e: any) => n + e.timeEntries.length, 0);
    expect(entries).toBeGreaterThan(500);
    expect(callsFor100).toEqual(callsFor10);
    expect(callsFor100.byRoute).toEqual({ "GET /api/v3/timeentries": 1, "GET /api/v3/axisSections": 1, "GET /api/v3/timmitimesheets": 1 });
  });

  it("of two ranges in one operation cost one list call per range", async () => {
    stack.resetStats();
    const res = await stack.gql(
      url,
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employee {
        a: timeEntries(from: "2026-06-08", to: "2026-06-14") { id }
        b: timeEntries(from: "2026-06-01", to: "2026-06-07") { id }
      } } }`,
      { r: employees(range(1, 50)) },
    );
    expect(res.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": 2 });
  });

  it("of a quarter reads every page of the legacy list", async () => {
    const res = await stack.gql(url, entitiesQuery("Employee", "id timeEntries(from: $from, to: $to) { id }", RANGE_VARS), {
      r: employees(range(1, 100)),
      from: "2026-03-16",
      to: "2026-06-15",
    });
    expect(res.errors).toBeUndefined();
    const count = (await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=${range(1, 100).join(",")}&startsAt=between,2026-03-16,2026-06-15&paging=0,1`)).data
      .count;
    expect(count).toBeGreaterThan(1000);
    const ids = res.data._entities.flatMap((e: any) => e.timeEntries.map((t: any) => t.id));
    expect(ids.length).toBe(count);
    expect(new Set(ids).size).toBe(count);
  });
});
