import type { SpeculationContext } from "./apollo/speculate.js";


export interface GatewayContext extends SpeculationContext {
  authorization?: string;
  /** this operation's id, sent with its query fetches so that a subgraph shares its loaders among them (operation-scope.ts) */
  operationId: string;
  /** subgraph fetches made for this operation */
  subgraphFetches: number;
  /** the request's id (x-request-id), passed to the subgraphs */
  requestId?: string;
  /** when the operation's time is up (`performance.now()` time) */
  deadline: number;
}
