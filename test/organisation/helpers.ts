import { subgraphClient } from "../helpers/subgraph.js";

const organisation = subgraphClient("organisation");

/** POSTs to the organisation subgraph and expects an answer without errors. */
export const query = organisation.query;

/** POSTs to the organisation subgraph and answers the whole response (data and errors). */
export const send = organisation.send;

export { apiCalls, counting, representations } from "../helpers/subgraph.js";

export const ENTITIES_QUERY = "query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Department { id name } ... on BusinessEstablishment { id name } ... on LegalEntity { id legalName } ... on EmploymentTemplate { id title } ... on OccupationCategory { id title } ... on JobQualification { id title } ... on Taxonomy { id name } ... on TaxonomyLabel { id name } } }";

/** A REST webhook delivery attempt as the graph answers it (the fields the attempt tests select). */
export const attemptAsNode = (a: any) => ({
  id: a.id,
  isSuccessful: a.isSuccessful,
  responseStatusCode: a.responseStatusCode,
  errorResponseBody: a.errorResponseBody,
  signature: a.signature,
  createdAt: a.createdAt,
});
