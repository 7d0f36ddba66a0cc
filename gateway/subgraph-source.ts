import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { DEADLINE_HEADER, FILES_BASE_HEADER, OPERATION_HEADER, REQUEST_ID_HEADER, SUBGRAPH_SECRET_HEADER } from "../platform/headers.js";
import { injectTraceContext } from "../platform/request-scope.js";
import type { SubgraphAnswer, SubgraphFetch } from "./subgraph-fetch.js";

export interface GatewayContext {
  authorization?: string;
  /** this operation's id, sent with its query fetches so that a subgraph shares its loaders among them (operation-scope.ts) */
  operationId: string;
  /** subgraph fetches made for this operation */
  subgraphFetches: number;
  /** the request's id (x-request-id), passed to the subgraphs */
  requestId?: string;
  /** when the operation's time is up (`performance.now()` time) */
  deadline: number;
  /** the public origin file links name (GATEWAY_PUBLIC_URL, else the gateway's own), sent in FILES_BASE_HEADER */
  filesBase?: string;
}

/** A subgraph's answer read whole, as a WHATWG `Response` of the library's fetcher interface. */
export function stockResponse(url: string, answer: SubgraphAnswer): Response {
  // statuses that have no body by definition: `new Response` refuses one
  const body = answer.status === 204 || answer.status === 205 || answer.status === 304 ? null : answer.text;
  const response = new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  Object.defineProperty(response, "url", { value: url });
  return response;
}

/**
 * A subgraph's data source through `RemoteGraphQLDataSource`'s public interface only: the
 * gateway's headers (`willSendRequest`) and its fetcher (subgraph-fetch.ts: deadline, in-flight
 * sharing, keep-alive). It is the stock path when gateway/apollo/'s check fails (seams.ts), and the
 * base of its patched data source.
 */
export class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    protected readonly name: string,
    url: string,
    private readonly secret: string | null,
    fetch: SubgraphFetch,
    respond: (url: string, answer: SubgraphAnswer) => Response = stockResponse,
  ) {
    // node:http with keep-alive agents (`post`) rather than the default make-fetch-happen agent:
    // that agent keeps idle sockets forever, so after a pause longer than the subgraph server's
    // keep-alive timeout (5 s) a request could go out on a socket the server was closing
    // (ECONNRESET, "socket hang up"). Node's agent honours the server's `Keep-Alive: timeout=5`.
    // @apollo/gateway 2.14 hands the fetcher its headers as a plain object; a `Headers` (another
    // version, on the stock path) is read into one
    const fetcher = async (url: string, init: RequestInit & { headers: Record<string, string> }) => {
      const headers: unknown = init.headers;
      if (headers instanceof Headers || typeof (headers as { forEach?: unknown } | undefined)?.forEach === "function") {
        init = { ...init, headers: Object.fromEntries(new Headers(headers as HeadersInit)) };
      }
      return respond(url, await fetch(url, init));
    };
    super({ url, fetcher: fetcher as unknown as RemoteGraphQLDataSource["fetcher"] });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    // `context` is empty for the gateway's own requests (health checks, introspection)
    if (context && "subgraphFetches" in context) {
      context.subgraphFetches++;
      if (context.authorization) request.http?.headers.set("authorization", context.authorization);
      if (!/^\s*mutation\b/.test(request.query ?? "")) request.http?.headers.set(OPERATION_HEADER, context.operationId);
      request.http?.headers.set(DEADLINE_HEADER, String(Math.max(0, Math.floor(context.deadline - performance.now()))));
      if (context.filesBase) request.http?.headers.set(FILES_BASE_HEADER, context.filesBase);
    }
    // the operation's request id and trace context (the active span is @apollo/gateway's `gateway.fetch`)
    const requestId = context && "requestId" in context ? context.requestId : undefined;
    if (requestId !== undefined) request.http?.headers.set(REQUEST_ID_HEADER, requestId);
    const trace: Record<string, string> = {};
    injectTraceContext(trace);
    for (const [key, value] of Object.entries(trace)) request.http?.headers.set(key, value);
    if (this.secret) request.http?.headers.set(SUBGRAPH_SECRET_HEADER, this.secret);
    // the hop to a subgraph is internal (loopback under npm start, the cluster's network otherwise):
    // CPU matters more there than bytes, so its answers come uncompressed (platform/compression.ts)
    request.http?.headers.set("accept-encoding", "identity");
  }
}
