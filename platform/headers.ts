/** The headers the gateway sends with every subgraph request, and the subgraphs read. */

/** The gateway sends `SUBGRAPH_SECRET`; a subgraph with a secret answers only requests carrying it. */
export const SUBGRAPH_SECRET_HEADER = "x-subgraph-secret";

/** The milliseconds left to the operation (an integer); a subgraph's deadline is the lesser of it and its own. */
export const DEADLINE_HEADER = "x-deadline-ms";

/** The request's id: taken from the client when well formed (request-scope.ts), passed to the subgraphs and the directory, answered. */
export const REQUEST_ID_HEADER = "x-request-id";
