import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of a EmploymentTemplate; legacy-time only needs its key. */
export const employmentTemplateReference = keyOnlyReference;
