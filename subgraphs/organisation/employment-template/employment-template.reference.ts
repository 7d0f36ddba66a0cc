import type { SubgraphContext } from "../../shared/graphql/index.js";
import { employmentTemplateLoader } from "../loaders.js";

export const employmentTemplateReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => employmentTemplateLoader(ctx).load(reference.id),
};
