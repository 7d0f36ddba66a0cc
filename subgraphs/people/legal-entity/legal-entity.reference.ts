import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of a LegalEntity; people only needs its key. */
export const legalEntityReference = keyOnlyReference;
