import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of a Department; people only needs its key. */
export const departmentReference = keyOnlyReference;
