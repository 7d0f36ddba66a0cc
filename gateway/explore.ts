import type { ApolloServerPlugin, GraphQLServerContext } from "@apollo/server";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { sendJson } from "../platform/http.js";
import type { GatewayConfig } from "./config.js";
import { loadOperations, TOUR_VARIABLES, type Operation } from "./operations.js";
import { ErrorCode, errorBody } from "../platform/error-codes.js";

/**
 * Exploring the graph in a browser, outside production (GATEWAY_EXPLORER):
 * - `/` (and `/graphql`) for a browser: Apollo Sandbox, loaded from Apollo's CDN, opened on one
 *   operation of `operations/` with the tour's variables (`?operation=OrgChart`, the first by
 *   default); offline its fallback points to the explorer and the other operations.
 * - `/explorer`: GraphiQL, rendered from its prebuilt bundle and React, both served from
 *   node_modules by the gateway, so it works without the internet; one tab per operation.
 * In forward mode both start with an `Authorization` header to fill in.
 */

export interface Exploration {
  /** answers the request and returns true when it is an exploration page or file */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
}

/** the header preset of forward mode: the caller's own token of the directory service */
export const FORWARD_HEADER_PRESET = { Authorization: "Bearer <your token of the directory service>" };

const require = createRequire(import.meta.url);

/** A file of an npm package, served under `/explorer/vendor/<package>@<version>/<file>`. */
interface VendorFile {
  path: string;
  file: string;
  contentType: string;
}

function vendor(pkg: string, file: string): VendorFile {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { version } = require(manifest) as { version: string };
  const name = file.split("/").pop()!;
  return {
    path: `/explorer/vendor/${pkg}@${version}/${name}`,
    file: join(dirname(manifest), file),
    contentType: name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
  };
}

const VENDOR = {
  react: vendor("react", "umd/react.production.min.js"),
  reactDom: vendor("react-dom", "umd/react-dom.production.min.js"),
  graphiql: vendor("graphiql", "graphiql.min.js"),
  graphiqlCss: vendor("graphiql", "graphiql.min.css"),
};
const EXPLORER_SCRIPT: VendorFile = {
  path: "/explorer/explorer.js",
  // from one level below the root, as scripts/run.mjs's bundle also sits
  file: new URL("../gateway/explorer/explorer.js", import.meta.url).pathname,
  contentType: "text/javascript; charset=utf-8",
};
/** versioned paths: a new version is a new URL, so a browser may keep a file for a year */
const IMMUTABLE = "public, max-age=31536000, immutable";

const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // GraphiQL and its editors set styles on elements
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** JSON that can sit inside a `<script>` element without ending it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function prefersHtml(req: IncomingMessage): boolean {
  const accept = (req.headers.accept ?? "").split(",")[0]!.trim().split(";")[0]!.trim();
  return req.method === "GET" && accept === "text/html";
}

const SANDBOX_OFFLINE_TEXT = "<p>Apollo Sandbox cannot be loaded; it appears that you might be offline.</p>";
const SANDBOX_STYLE = "#embeddableSandbox {";

export async function createExploration(config: GatewayConfig): Promise<Exploration> {
  const operations = config.explorers.sandbox || config.explorers.explorer ? loadOperations() : [];
  const headers = config.auth === "forward" ? FORWARD_HEADER_PRESET : undefined;
  const sandboxes = config.explorers.sandbox ? await sandboxPages(operations, headers, config.explorers.explorer) : null;
  const explorerPage = config.explorers.explorer ? explorerHtml(operations, headers) : null;
  const files = new Map<string, VendorFile>(
    config.explorers.explorer ? [...Object.values(VENDOR), EXPLORER_SCRIPT].map((f) => [f.path, f]) : [],
  );
  const contents = new Map<string, Buffer>();

  return {
    async handle(req, res, path) {
      if ((path === "/" || path === "/graphql") && prefersHtml(req)) {
        if (sandboxes) {
          const name = new URL(req.url ?? "/", "http://gateway.local").searchParams.get("operation") ?? operations[0]?.name;
          const page = name ? sandboxes.get(name) : undefined;
          if (!page) {
            sendJson(res, 404, errorBody(ErrorCode.NOT_FOUND, "No such operation in operations/"));
            return true;
          }
          sendHtml(res, await page());
          return true;
        }
        if (explorerPage) {
          res.writeHead(302, { location: "/explorer", "content-length": "0" });
          res.end();
          return true;
        }
        return false;
      }
      if (!explorerPage || (path !== "/explorer" && !path.startsWith("/explorer/"))) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        sendJson(res, 405, { errors: [{ message: "Method not allowed" }] }, { allow: "GET, HEAD" });
        return true;
      }
      if (path === "/explorer") {
        sendHtml(res, explorerPage, { "content-security-policy": EXPLORER_CSP });
        return true;
      }
      const file = files.get(path);
      if (!file) {
        sendJson(res, 404, { errors: [{ message: "Not found" }] });
        return true;
      }
      let body = contents.get(path);
      if (!body) {
        body = await readFile(file.file);
        contents.set(path, body);
      }
      res.writeHead(200, {
        "content-type": file.contentType,
        "content-length": String(body.length),
        "cache-control": file === EXPLORER_SCRIPT ? "no-cache" : IMMUTABLE,
        "x-content-type-options": "nosniff",
      });
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}

function sendHtml(res: ServerResponse, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-length": String(Buffer.byteLength(html)),
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(html);
}

/**
 * One Apollo Sandbox page per operation, rendered by Apollo Server's own landing page plugin with
 * the operation, its variables and the header preset as the embed's initial state. Telemetry is
 * off. The offline fallback gains links to the explorer and the other operations, and the empty
 * embed no longer covers it.
 */
async function sandboxPages(
  operations: Operation[],
  headers: Record<string, string> | undefined,
  withExplorer: boolean,
): Promise<Map<string, () => Promise<string>>> {
  const links = [
    ...(withExplorer ? [`<p>The explorer served by this gateway works without the internet: <a href="/explorer">/explorer</a>.</p>`] : []),
    `<p>The operations of <code>operations/</code> in Apollo Sandbox:</p><ul>`,
    ...operations.map((o) => `<li><a href="/?operation=${encodeURIComponent(o.name)}">${escapeHtml(o.name)}</a></li>`),
    `</ul>`,
  ].join("\n");
  const pages = new Map<string, () => Promise<string>>();
  for (const operation of operations) {
    const plugin = ApolloServerPluginLandingPageLocalDefault({
      document: operation.source,
      variables: TOUR_VARIABLES[operation.name] ?? {},
      ...(headers ? { headers } : {}),
      includeCookies: false,
      embed: { runTelemetry: false, endpointIsEditable: false },
    }) as ApolloServerPlugin;
    const listener = await plugin.serverWillStart!({} as GraphQLServerContext);
    const landingPage = await listener!.renderLandingPage!();
    pages.set(operation.name, async () => {
      const html = typeof landingPage.html === "string" ? landingPage.html : await landingPage.html();
      if (!html.includes(SANDBOX_OFFLINE_TEXT) || !html.includes(SANDBOX_STYLE)) {
        throw new Error("Apollo Server's Sandbox page changed: its offline fallback cannot be extended");
      }
      return html
        .replace(SANDBOX_OFFLINE_TEXT, `${SANDBOX_OFFLINE_TEXT}\n${links}`)
        .replace(SANDBOX_STYLE, `#embeddableSandbox:empty { display: none; }\n  ${SANDBOX_STYLE}`);
    });
  }
  return pages;
}

function explorerHtml(operations: Operation[], headers: Record<string, string> | undefined): string {
  const headersJson = headers ? JSON.stringify(headers, null, 2) : "";
  const config = {
    endpoint: "/graphql",
    headers: headersJson,
    tabs: operations.map((o) => ({
      query: o.source,
      variables: JSON.stringify(TOUR_VARIABLES[o.name] ?? {}, null, 2),
      ...(headers ? { headers: headersJson } : {}),
    })),
  };
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>directory-graph explorer</title>
    <link rel="stylesheet" href="${VENDOR.graphiqlCss.path}" />
    <style>body { margin: 0; } #graphiql { height: 100vh; }</style>
  </head>
  <body>
    <div id="graphiql">Loading the explorer…</div>
    <script id="explorer-config" type="application/json">${scriptJson(config)}</script>
    <script src="${VENDOR.react.path}"></script>
    <script src="${VENDOR.reactDom.path}"></script>
    <script src="${VENDOR.graphiql.path}"></script>
    <script src="${EXPLORER_SCRIPT.path}"></script>
  </body>
</html>
`;
}
