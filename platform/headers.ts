/** The headers the gateway sends with every subgraph request, and the subgraphs read. */

/** The gateway sends `SUBGRAPH_SECRET`; a subgraph with a secret answers only requests carrying it. */
export const SUBGRAPH_SECRET_HEADER = "x-subgraph-secret";

/** The milliseconds left to the operation (an integer); a subgraph's deadline is the lesser of it and its own. */
export const DEADLINE_HEADER = "x-deadline-ms";

/** The request's id: taken from the client when well formed (request-scope.ts), passed to the subgraphs and the directory, answered. */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * One gateway operation's id (a random UUID), on each of its subgraph query fetches: the fetches of
 * one operation and one caller share the subgraph's loaders, so that a read one of them started
 * answers the others (subgraphs/shared/graphql/operation-scope.ts).
 */
export const OPERATION_HEADER = "x-operation-id";

/**
 * The subgraphs' route that tells, in forward mode, whether the directory knows the caller's
 * token (`{"caller":"accepted"|"refused"|"unknown"}`), for the gateway's check of a token it has
 * not seen (docs/security.md#unverified-tokens). It answers only the gateway (SUBGRAPH_SECRET).
 */
export const CALLER_PATH = "/caller";

/**
 * The public origin file links name (platform/file-links.ts): the gateway sends its own
 * (GATEWAY_PUBLIC_URL, else the origin it listens on) so that a link a subgraph mints points at
 * the gateway's `/files/` route, never at the subgraph or the upstream.
 */
export const FILES_BASE_HEADER = "x-files-base";
