import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The people subgraph resolves the rest of an Employment; legacy-time only needs its key. */
export const employmentReference = keyOnlyReference;
