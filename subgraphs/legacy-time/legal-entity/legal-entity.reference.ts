import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of a LegalEntity; legacy-time only needs its key. */
export const legalEntityReference = keyOnlyReference;
