import type { Employee } from "../data/model.js";

/** Reference objects of the legacy API: `{id, name, url}` with an absolute url. */
export interface Ref {
  id: number;
  name: string;
  url: string;
}

export function ref(origin: string, path: string, id: number, name: string): Ref {
  return { id, name, url: `${origin}${path}/${id}` };
}

export function fullName(employee: Employee): string {
  return `${employee.givenName} ${employee.familyName}`;
}

export function userRef(origin: string, employee: Employee): Ref {
  return ref(origin, "/api/v3/users", Number(employee.id), fullName(employee));
}
