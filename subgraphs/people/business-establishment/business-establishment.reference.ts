/** The organisation subgraph resolves the rest of a BusinessEstablishment; people only needs its key. */
export const businessEstablishmentReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
