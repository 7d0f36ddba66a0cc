/** The organisation subgraph resolves the department; `legacy` loads from the key. */
export const departmentReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
