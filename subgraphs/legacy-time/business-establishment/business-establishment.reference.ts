import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the establishment; `legacy` loads from the key. */
export const businessEstablishmentReference = keyOnlyReference;
