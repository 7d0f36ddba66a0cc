import type { EmployeePersonalRecord } from "../../data/model.js";
import { employeeVisible } from "../derived.js";
import { embedById } from "../engine.js";
import { enumList, idList } from "../filters.js";
import { ref } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { COUNTRY_CODES } from "./country-codes.js";
import { byId } from "../../data/records.js";
import { perContext } from "../cache.js";
import { groupBy, self, withLinks } from "./common.js";

const recordsById = perContext((ctx) => byId(ctx.company.personalRecords));
const byEmployee = perContext((ctx) => groupBy(ctx.company.personalRecords, (r) => r.employeeId));

export const LEGAL_GENDERS = ["unknown", "male", "female", "diverse"] as const;

export function serializePersonalRecord(r: EmployeePersonalRecord, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "employee-personal-record", "employee-personal-records", r.id),
      employee: ref(view, "employee", "employees", r.employeeId),
      title: r.title,
      legalGender: r.legalGender,
      birthDate: r.birthDate,
      insuranceNumber: r.insuranceNumber,
      nationalitiesCountryCodes: r.nationalitiesCountryCodes,
      bankAccount: r.bankAccount,
      phoneNumber: r.phoneNumber,
      email: r.email,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
    },
    () => ({}),
  );
}

export const employeePersonalRecords: ResourceDef<EmployeePersonalRecord> = {
  collection: "employee-personal-records",
  type: "employee-personal-record",
  scope: "employee-personal-records",
  records: (ctx) => ctx.company.personalRecords,
  byId: (id, ctx) => recordsById(ctx).get(id),
  visible: (r, caller, ctx) => employeeVisible(r.employeeId, caller, ctx),
  serialize: serializePersonalRecord,
  embeddables: {
    employee: (r, view) => [embedById(view, "employee", r.employeeId)],
  },
  filters: {
    "employee.id": idList((r) => r.employeeId, { index: byEmployee }),
    legalGender: enumList(LEGAL_GENDERS, (r) => r.legalGender),
    // a record matches when it has at least one of the given nationalities
    nationalitiesCountryCodes: enumList(COUNTRY_CODES, (r) => r.nationalitiesCountryCodes),
  },
};
