import compression from "compression";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Answers compressed when the client accepts it (docs/deploying.md#compression): brotli or gzip as
 * `Accept-Encoding` prefers (brotli first at equal weight, quality 4: most of its gain for little
 * CPU), only bodies of COMPRESSION_MIN_BYTES or more (below, the headers and the CPU cost more than
 * they save), only compressible types (JSON, `application/graphql-response+json`, HTML, scripts),
 * `Vary: Accept-Encoding` always. The `compression` package does the negotiation and streaming;
 * the gateway, the subgraphs and the in-process directory all answer through it.
 */

/** the smallest body compressed, in bytes */
export const COMPRESSION_MIN_BYTES = 1024;

const middleware = compression({
  threshold: COMPRESSION_MIN_BYTES,
  // never a stream of events (subscriptions over SSE): compressed, its events would wait in the
  // compressor's buffer instead of reaching the subscriber as they happen
  filter: (req, res) => !String(res.getHeader("content-type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
});

/** Runs `next` with `res` compressing what it writes, as the request accepts. */
export function compressAnswer(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  // connect-style middleware over node's own request and response: it only patches res's methods
  middleware(req as never, res as never, next);
}
