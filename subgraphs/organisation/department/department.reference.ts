import type { SubgraphContext } from "../../shared/graphql/index.js";
import { departmentLoader } from "../loaders.js";

export const departmentReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => departmentLoader(ctx).load(reference.id),
};
