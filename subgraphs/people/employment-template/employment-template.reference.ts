/** The organisation subgraph resolves the rest of a EmploymentTemplate; people only needs its key. */
export const employmentTemplateReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
