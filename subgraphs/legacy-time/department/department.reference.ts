import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the department; `legacy` loads from the key. */
export const departmentReference = keyOnlyReference;
