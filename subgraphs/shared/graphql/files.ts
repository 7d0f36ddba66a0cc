import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { sendJson } from "../../../platform/http.js";
import { CONDITIONAL_HEADERS, FILES_PATH, FileLinks, LINK_REFUSAL, type FileTarget } from "../../../platform/file-links.js";
import { FILES_BASE_HEADER } from "../../../platform/headers.js";
import type { Logger } from "../../../platform/log.js";
import type { Upstream } from "../upstream/index.js";

/**
 * Files through the facade (docs/security.md#file-links): the links the file fields of a request
 * answer (`FileLinkMinter`), and the route that serves one (`serveFileLink`), which the gateway's
 * `/files/` route forwards to.
 */

/** What a resolver mints a file's link with: never the upstream's address, never its token. */
export interface FileLinkMinter {
  /** the link to a file of the current or legacy API by id */
  link(target: FileTarget): string;
  /** the link to a file address the upstream gave (`links.portrait`), or null when it is not the upstream's */
  tokened(href: string): string | null;
}

/** The public origin a request's links name: the gateway's (its header), else FILE_LINK_BASE_URL, else this server's own. */
export function filesBaseOf(req: IncomingMessage, configured: string | null, own: string): string {
  const sent = req.headers[FILES_BASE_HEADER];
  if (typeof sent === "string" && /^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/.test(sent)) return sent.replace(/\/+$/, "");
  return configured ?? own;
}

export function fileLinkMinter(links: FileLinks, upstream: Upstream, base: string): FileLinkMinter {
  return {
    link: (target) => links.mint(base, target),
    tokened: (href) => {
      const path = upstream.filePath(href);
      return path === null ? null : links.mint(base, { kind: "tokened", path });
    },
  };
}

/** the headers of the upstream's answer a client gets: what the bytes are, never where they came from */
const PASSED_HEADERS = ["content-type", "content-length", "content-disposition", "last-modified", "etag"] as const;

/**
 * `GET /files/<sealed>`: a link that does not open (altered, made up, expired) is refused with its
 * 4xx before any upstream call; an open one is read upstream and its bytes streamed to the caller
 * as they come, with their content type and ETag, and `Cache-Control: private` for the link's
 * remaining lifetime. A client's `If-None-Match`/`If-Modified-Since` goes upstream with the read,
 * and the upstream's 304 comes back without a body. An upstream refusal is answered 404 (the file is not
 * there for this link), an upstream failure 502; no upstream body or address is passed on.
 */
export async function serveFileLink(req: IncomingMessage, res: ServerResponse, links: FileLinks, upstream: Upstream, logger: Logger): Promise<void> {
  const url = new URL(req.url ?? "/", "http://subgraph.local");
  if (req.method !== "GET" && req.method !== "HEAD") return sendJson(res, 405, { errors: [{ message: "Files are read with GET." }] }, { allow: "GET, HEAD" });
  const opened = links.open(url.pathname.slice(FILES_PATH.length));
  if ("refused" in opened) {
    const { status, message } = LINK_REFUSAL[opened.refused];
    return sendJson(res, status, { errors: [{ message }] }, { "cache-control": "no-store" });
  }
  const authorization = typeof req.headers.authorization === "string" ? req.headers.authorization : undefined;
  const conditional: Record<string, string> = {};
  for (const name of CONDITIONAL_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") conditional[name] = value;
  }
  let answer: Awaited<ReturnType<Upstream["file"]>>;
  try {
    answer = await upstream.file(opened.target, authorization, conditional);
  } catch (err) {
    logger.warn("file read failed", { kind: opened.target.kind, error: err instanceof Error ? err.message : String(err) });
    return sendJson(res, 502, { errors: [{ message: "The directory did not answer for this file: try again." }] });
  }
  // the browser may keep the file while its link lives, for this caller only
  const caching = { "cache-control": `private, max-age=${Math.max(0, opened.expires - Math.floor(Date.now() / 1000))}` };
  if (answer.status === 304) {
    answer.body.destroy();
    const etag = answer.headers.etag;
    res.writeHead(304, { ...caching, ...(typeof etag === "string" ? { etag } : {}) });
    res.end();
    return;
  }
  if (answer.status !== 200) {
    answer.body.destroy();
    const status = answer.status === 401 ? 401 : answer.status >= 500 ? 502 : 404;
    return sendJson(res, status, { errors: [{ message: status === 502 ? "The directory did not answer for this file: try again." : "No file for this link." }] });
  }
  const headers: Record<string, string> = { ...caching, "x-content-type-options": "nosniff" };
  for (const name of PASSED_HEADERS) {
    const value = answer.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  // a compressed answer is decoded on its way: its length is not the upstream's
  if (answer.headers["content-encoding"] !== undefined) delete headers["content-length"];
  res.writeHead(200, headers);
  if (req.method === "HEAD") {
    answer.body.destroy();
    res.end();
    return;
  }
  try {
    await pipeline(answer.body, res);
  } catch (err) {
    logger.warn("file stream broken", { error: err instanceof Error ? err.message : String(err) });
    res.destroy();
  }
}
