import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of a OccupationCategory; legacy-time only needs its key. */
export const occupationCategoryReference = keyOnlyReference;
