import type { EmployeeStatus, Id, IsoDate } from "./model.js";

/** Helpers over the company's records shared by the current and the legacy API. */

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byId<R extends { id: Id }>(records: readonly R[]): Map<Id, R> {
  return new Map(records.map((r) => [r.id, r]));
}

/** Records grouped by `key`, each group sorted by `order`. */
export function groupSorted<R>(records: readonly R[], key: (r: R) => Id, order: (a: R, b: R) => number): Map<Id, R[]> {
  const groups = new Map<Id, R[]>();
  for (const r of records) {
    const k = key(r);
    const group = groups.get(k);
    if (group) group.push(r);
    else groups.set(k, [r]);
  }
  for (const group of groups.values()) if (group.length > 1) group.sort(order);
  return groups;
}

/**
 * The applicable rule of docs/interface.md#applicable-employment-and-job-position (stated for legacy work contracts, used for employments and
 * job positions alike): the ongoing item (the most recently started when several overlap), else
 * the first upcoming one, else the last one. `items` are chronological.
 */
export function pickApplicable<T>(items: readonly T[], status: (item: T) => EmployeeStatus): T | null {
  let upcoming: T | null = null;
  for (let i = items.length - 1; i >= 0; i--) {
    const s = status(items[i]!);
    if (s === "active") return items[i]!;
    if (s === "upcoming") upcoming = items[i]!;
  }
  return upcoming ?? items[items.length - 1] ?? null;
}

/** `active` from the start to the end (inclusive, open when null), `upcoming` before, `deactivated` after. */
export function statusOf(start: IsoDate, end: IsoDate | null, today: IsoDate): EmployeeStatus {
  if (start > today) return "upcoming";
  if (end !== null && end < today) return "deactivated";
  return "active";
}

/** An employee's status from those of their employments: active with one today, else upcoming with one to come. */
export function employeeStatusOf(employmentStatuses: Iterable<EmployeeStatus>): EmployeeStatus {
  let upcoming = false;
  for (const s of employmentStatuses) {
    if (s === "active") return "active";
    if (s === "upcoming") upcoming = true;
  }
  return upcoming ? "upcoming" : "deactivated";
}

/** A job position ends the day before the next one of its employment starts. */
export function dayBefore(date: IsoDate): IsoDate {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}
