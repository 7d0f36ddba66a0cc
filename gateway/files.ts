import { request, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { pipeline } from "node:stream/promises";
import { CONDITIONAL_HEADERS, FILES_PATH } from "../platform/file-links.js";
import { REQUEST_ID_HEADER, SUBGRAPH_SECRET_HEADER } from "../platform/headers.js";
import { sendJson, type Refusal } from "../platform/http.js";
import type { Logger } from "../platform/log.js";

/**
 * The gateway's `/files/` route (docs/security.md#file-links): a file link a subgraph minted
 * (platform/file-links.ts) names this route, so that a client fetches a file from the facade,
 * with no credential of the upstream's, as an `<img src>` can. The route holds no key and reads
 * nothing upstream: it forwards the request to the subgraph that serves files (people), which
 * opens the link (refusing an altered or expired one before any upstream call) and streams the
 * bytes; they are passed on as they come, never buffered here.
 *
 * Every fetch counts against the per-client limits as one operation (rate-limits.ts), refused with
 * its 429 before the subgraph is asked. A browser's conditional request (`If-None-Match`,
 * `If-Modified-Since`) is passed on, and the upstream's 304 back, so that a file the browser holds
 * costs no bytes; the subgraph's `Cache-Control` (private, at most the link's remaining lifetime)
 * lets it hold one without asking at all.
 */

/** The headers of the subgraph's answer passed to the client. */
const PASSED = ["content-type", "content-length", "content-disposition", "last-modified", "etag", "cache-control", "x-content-type-options", "allow"] as const;

export function fileRoute(options: { subgraphUrl: string; secret: string | null; logger: Logger; meter: (req: IncomingMessage) => Promise<Refusal | null> }) {
  const origin = new URL(options.subgraphUrl);
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { errors: [{ message: "Files are read with GET." }] }, { allow: "GET, HEAD" });
    // the per-client limits, as for an operation: over them, no subgraph call
    const refused = await options.meter(req);
    if (refused) return sendJson(res, refused.status, refused.body, refused.headers);
    const target = new URL(path.startsWith(FILES_PATH) ? path : FILES_PATH, origin);
    const headers: Record<string, string> = { accept: "*/*" };
    if (options.secret) headers[SUBGRAPH_SECRET_HEADER] = options.secret;
    // forward mode: a document link fetched with the caller's bearer token is read with it
    if (typeof req.headers.authorization === "string") headers.authorization = req.headers.authorization;
    for (const name of CONDITIONAL_HEADERS) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const requestId = res.getHeader(REQUEST_ID_HEADER);
    if (typeof requestId === "string") headers[REQUEST_ID_HEADER] = requestId;
    const send = target.protocol === "https:" ? httpsRequest : request;
    const upstream = send(target, { method: req.method === "HEAD" ? "HEAD" : "GET", headers });
    try {
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        upstream.once("response", resolve);
        upstream.once("error", reject);
        upstream.end();
      });
      const passed: Record<string, string> = {};
      for (const name of PASSED) {
        const value = answer.headers[name];
        if (typeof value === "string") passed[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, passed);
      await pipeline(answer, res);
    } catch (err) {
      options.logger.warn("file route failed", { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) return sendJson(res, 502, { errors: [{ message: "Files cannot be served right now: try again." }] });
      res.destroy();
    }
  };
}
