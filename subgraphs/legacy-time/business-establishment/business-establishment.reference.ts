/** The organisation subgraph resolves the establishment; `legacy` loads from the key. */
export const businessEstablishmentReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
