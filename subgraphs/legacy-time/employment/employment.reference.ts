import type { EmploymentRef } from "./employment.js";

/** The people subgraph resolves the employment; the representation keeps the owner it carries. */
export const employmentReference = {
  __resolveReference(reference: EmploymentRef): EmploymentRef {
    return reference.employee?.id ? { id: reference.id, employee: { id: reference.employee.id } } : { id: reference.id };
  },
};
