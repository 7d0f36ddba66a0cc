import { keyOnlyReference } from "../../shared/graphql/index.js";

/** The organisation subgraph resolves the rest of a BusinessEstablishment; people only needs its key. */
export const businessEstablishmentReference = keyOnlyReference;
