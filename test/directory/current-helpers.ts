import type { Company, Employee, Employment, JobPosition } from "../../directory/data/model.js";

/**
 * Helpers of the current-API tests: HTTP calls against a running directory, and an independent
 * restatement of the computed fields of docs/interface.md (statuses, applicable employment and position) to
 * check the service's answers against, rather than its own code.
 */

export const API_VERSION = "2024-11-01";

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export { directoryToken } from "../helpers/stack.js";

export async function postToken(baseUrl: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** GET with a token and the version header (either can be replaced or dropped with `headers`). */
export async function get(
  baseUrl: string,
  token: string | null,
  path: string,
  headers: Record<string, string | null> = {},
  method = "GET",
): Promise<Answer> {
  const all: Record<string, string | null> = { "api-version": API_VERSION, ...headers };
  if (token !== null && !("authorization" in headers)) all.authorization = `Bearer ${token}`;
  const sent: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) if (v !== null) sent[k] = v;
  const res = await fetch(path.startsWith("http") ? path : `${baseUrl}${path}`, { method, headers: sent });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * The path with `links` added to its `include`: the service returns a list's `links` (and so its
 * next page's address) only when asked, as production does.
 */
export function askingLinks(path: string): string {
  const url = new URL(path, "http://x");
  const include = url.searchParams.getAll("include").flatMap((v) => v.split(",")).filter((v) => v !== "");
  url.searchParams.delete("include");
  url.searchParams.set("include", [...new Set([...include, "links"])].join(","));
  return `${url.pathname}${url.search}`;
}

/** Every item of a list, following links.next to the end (asking include=links). */
export async function getAll(baseUrl: string, token: string, path: string): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let pages = 0;
  let next: string | null = `${baseUrl}${askingLinks(path)}`;
  while (next) {
    const page: Answer = await get(baseUrl, token, next);
    if (page.status !== 200) throw new Error(`${next}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...page.body.items);
    pages++;
    next = page.body.links.next?.href ?? null;
    if (pages > 10_000) throw new Error("paging does not end");
  }
  return { items, pages };
}

export type Status = "active" | "upcoming" | "deactivated";

function status(start: string, end: string | null, today: string): Status {
  if (start > today) return "upcoming";
  if (end !== null && end < today) return "deactivated";
  return "active";
}

function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** The expected computed values of one company, restated from docs/interface.md#applicable-employment-and-job-position. */
export class Expect {
  readonly employmentsOf = new Map<string, Employment[]>();
  readonly positionsOf = new Map<string, JobPosition[]>();
  readonly byId = {
    employee: new Map<string, Employee>(),
    employment: new Map<string, Employment>(),
    position: new Map<string, JobPosition>(),
  };

  constructor(readonly company: Company) {
    for (const e of company.employees) this.byId.employee.set(e.id, e);
    for (const e of company.employments) {
      this.byId.employment.set(e.id, e);
      this.employmentsOf.set(e.employeeId, [...(this.employmentsOf.get(e.employeeId) ?? []), e]);
    }
    for (const p of company.jobPositions) {
      this.byId.position.set(p.id, p);
      this.positionsOf.set(p.employmentId, [...(this.positionsOf.get(p.employmentId) ?? []), p]);
    }
    for (const list of this.employmentsOf.values()) list.sort((a, b) => a.startDate.localeCompare(b.startDate));
    for (const list of this.positionsOf.values()) list.sort((a, b) => a.startsOn.localeCompare(b.startsOn) || Number(a.id) - Number(b.id));
  }

  employmentStatus(e: Employment): Status {
    return status(e.startDate, e.endDate, this.company.today);
  }

  positionEndsOn(p: JobPosition): string | null {
    const siblings = this.positionsOf.get(p.employmentId)!;
    const next = siblings[siblings.indexOf(p) + 1];
    return next ? dayBefore(next.startsOn) : this.byId.employment.get(p.employmentId)!.endDate;
  }

  positionStatus(p: JobPosition): Status {
    return status(p.startsOn, this.positionEndsOn(p), this.company.today);
  }

  employeeStatus(id: string): Status {
    const statuses = (this.employmentsOf.get(id) ?? []).map((e) => this.employmentStatus(e));
    return statuses.includes("active") ? "active" : statuses.includes("upcoming") ? "upcoming" : "deactivated";
  }

  /** ongoing (latest started), else first upcoming, else last */
  applicableEmployment(id: string): Employment | null {
    const list = this.employmentsOf.get(id) ?? [];
    const active = list.filter((e) => this.employmentStatus(e) === "active");
    if (active.length > 0) return active[active.length - 1]!;
    return list.find((e) => this.employmentStatus(e) === "upcoming") ?? list[list.length - 1] ?? null;
  }

  applicableJobPosition(id: string): JobPosition | null {
    const employment = this.applicableEmployment(id);
    if (!employment) return null;
    const list = this.positionsOf.get(employment.id) ?? [];
    return (
      list.find((p) => this.positionStatus(p) === "active") ??
      list.find((p) => this.positionStatus(p) === "upcoming") ??
      list[list.length - 1] ??
      null
    );
  }

  legalEntityOf(employment: Employment): string | null {
    const first = (this.positionsOf.get(employment.id) ?? [])[0];
    if (!first) return null;
    return this.company.businessEstablishments.find((b) => b.id === first.businessEstablishmentId)!.legalEntityId;
  }

  /** employees demo-limited may see: applicable position in establishment "1" */
  visibleToLimited(employeeId: string): boolean {
    return this.applicableJobPosition(employeeId)?.businessEstablishmentId === "1";
  }
}

/** Case and accents ignored; letters that do not decompose count as their base letters (Đ as d). */
export function foldText(text: string): string {
  const whole: Record<string, string> = { đ: "d", ð: "d", ł: "l", ø: "o", æ: "ae", œ: "oe", ß: "ss", ı: "i", þ: "th" };
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[đðłøæœßıþ]/g, (c) => whole[c]!);
}

export const ids = (items: Array<{ id: string }>): string[] => items.map((i) => i.id);
export const byNumericId = (a: string, b: string): number => Number(a) - Number(b);
