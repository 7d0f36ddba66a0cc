import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of an EmploymentTemplate; people only needs its key. */
export const employmentTemplateReference = keyOnlyReference;
