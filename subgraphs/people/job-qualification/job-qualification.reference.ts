import { keyOnlyReference } from "../../shared/graphql/index.js";

/**
 * The organisation subgraph resolves the rest of a JobQualification; people only needs its key
 * (for `JobQualification.jobPositions`).
 */
export const jobQualificationReference = keyOnlyReference;
