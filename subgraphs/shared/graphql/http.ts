import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest } from "@apollo/server";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Apollo Server on plain `node:http`: one request in, one GraphQL response out. Used by the
 * subgraphs and the gateway, which add their own routes (`/health`, `/ready`) around it.
 */

const MAX_BODY_BYTES = 1 << 20;

export class BodyTooLargeError extends Error {}

export async function serveGraphQL<C extends BaseContext>(
  apollo: ApolloServer<C>,
  req: IncomingMessage,
  res: ServerResponse,
  context: () => Promise<C>,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://graphql.local");
  let body: unknown;
  try {
    body = await readBody(req);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      return sendJson(res, 413, { errors: [{ message: "Request body too large", extensions: { code: "BAD_REQUEST" } }] });
    }
    throw err;
  }
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const request: HTTPGraphQLRequest = { method: (req.method ?? "GET").toUpperCase(), headers, search: url.search, body };
  const response = await apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: request, context });
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === "complete") {
    res.end(response.body.string);
  } else {
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  }
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  if (!(req.headers["content-type"] ?? "").includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    // Apollo answers 400 to a body it cannot read
    return text;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(payload)), ...headers });
  res.end(payload);
}
