/** The organisation subgraph resolves the rest of a LegalEntity; people only needs its key. */
export const legalEntityReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
