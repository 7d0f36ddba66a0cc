/** The organisation subgraph resolves the rest of a Department; people only needs its key. */
export const departmentReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
