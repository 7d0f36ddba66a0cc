/**
 * The speculation wire protocol between the gateway and the subgraphs: the operation names by
 * which a subgraph, and the metrics, know what the gateway asks ahead (gateway/apollo/speculate.ts;
 * docs/graph.md#query-plans). One module that both sides import, so that the names are written once.
 */

/**
 * The operation name of the gateway's announcements (gateway/apollo/speculate.ts): a query of the entity
 * fetches a subgraph will be asked later, with no representation, sent as the operation starts so
 * that the subgraph starts their reads that need no id. A subgraph answers it once those reads
 * have settled, so that identical operations at once share one announcement as they share fetches.
 */
export const ANNOUNCEMENT_OPERATION = "GatewayPrefetch";

/** The operation-name suffix of a split part: its errors are the root fetch's to report. */
export const SPLIT_PART = "__part";

/**
 * the name of a fetch a gateway plans, `EmployeeProfile__people__0`, or the part of it our gateway
 * asks ahead (`…__part`, gateway/apollo/speculate.ts)
 */
const PLANNED_FETCH = new RegExp(`^(.+)__[_0-9A-Za-z-]+__\\d+(?:${SPLIT_PART})?$`);

/** The operation a planned fetch's name (`EmployeeProfile__people__0`, `…__part`) is of, or null for another name. */
export function plannedFetchOperation(name: string): string | null {
  return PLANNED_FETCH.exec(name)?.[1] ?? null;
}
