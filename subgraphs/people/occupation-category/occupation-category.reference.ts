import { keyOnlyReference } from "../../shared/graphql/index.js";

/**
 * The organisation subgraph resolves the rest of an OccupationCategory; people only needs its key
 * (for `OccupationCategory.jobPositions`).
 */
export const occupationCategoryReference = keyOnlyReference;
