import type { HTTPGraphQLRequest } from "@apollo/server";
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ErrorCode, errorBody } from "../platform/error-codes.js";
import { REQUEST_ID_HEADER } from "../platform/headers.js";
import type { Refusal } from "../platform/http.js";
import type { Logger } from "../platform/log.js";
import { processMetrics } from "../platform/metrics.js";
import { loadOperations, type Operation } from "./operations.js";

/**
 * Trusted documents (persisted query lists): the gateway serves the documents its frontends ship
 * (`operations/`), named by the SHA-256 of their text, and in `enforce` mode nothing else.
 *
 * The manifest, `operations/trusted-documents.json`, is `{ "<sha256 hex>": "<document>" }`, built
 * by `npm run trusted-documents` and committed; GATEWAY_TRUSTED_DOCUMENTS_MANIFEST may name one a
 * frontend's build wrote instead, in the format of graphql-codegen's client preset, Apollo's
 * persisted query manifest or Relay's persisted queries (`readManifest`). A client sends the hash instead of the document, as APQ's extension
 * (`extensions.persistedQuery.sha256Hash`) or as `documentId` (`<hex>` or `sha256:<hex>`); the
 * gateway puts the document in before anything else reads the request. Modes
 * (GATEWAY_TRUSTED_DOCUMENTS):
 *
 * - `off`: any document, as before; a listed hash is still served from the manifest;
 * - `log`: any document, and one not in the manifest is logged once per hash and counted;
 * - `enforce`: a document or hash not in the manifest is refused (400) before parsing, planning
 *   or any subgraph fetch. Introspection-only operations pass when introspection is on (outside
 *   production), so the explorers still load the schema.
 *
 * A hash sent with a document it is not the hash of is refused in every mode, and so is a
 * `documentId` sent with another APQ hash. Outside `enforce`, a hash the manifest does not list is
 * looked up in the APQ store Apollo Server uses (apq-store.ts) and its document put in the same
 * way, so that every check that reads the document (operation limits, cost, per-client limits,
 * the caller's check) reads the one that runs (docs/security.md#every-request-path).
 */

export type TrustedDocumentsMode = "off" | "log" | "enforce";
export const TRUSTED_DOCUMENTS_MANIFEST = new URL("../operations/trusted-documents.json", import.meta.url);

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The manifest of the operations: each file's text exactly as a frontend would send it. */
export function buildManifest(operations: Operation[] = loadOperations()): Record<string, string> {
  return Object.fromEntries(operations.map((op) => [sha256(op.source), op.source]));
}

/**
 * A manifest as the tools write it (docs/frontends.md#persisted-documents-from-the-build-to-the-gateway), each accepted as it
 * comes:
 * - `{ "<sha256 hex>": "<document>" }`: ours (`npm run trusted-documents`), and relay-compiler's
 *   `persistConfig` file with `"algorithm": "SHA256"`;
 * - `{ "sha256:<hex>": "<document>" }`: graphql-codegen client-preset's `persisted-documents.json`
 *   (`persistedDocuments: { hashAlgorithm: "sha256" }`), its documents normalised by the preset;
 * - `{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "body", … }] }`:
 *   Apollo's persisted query manifest (`@apollo/generate-persisted-query-manifest`, default ids).
 * Every entry's hash must be the SHA-256 of its document as written, the only hash the gateway
 * checks requests against: another algorithm (Relay's default MD5, a custom Apollo id) is refused
 * at start, naming the entry. Read by hand: no library reads the three formats.
 */
export function readManifest(path: URL | string = TRUSTED_DOCUMENTS_MANIFEST): Map<string, string> {
  const where = String(path);
  const raw = JSON.parse(readFileSync(path, "utf8")) as unknown;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`${where} must be a JSON object: sha256 → document, or Apollo's persisted query manifest`);
  const manifest = new Map<string, string>();
  for (const [key, document] of manifestEntries(raw as Record<string, unknown>, where)) {
    const hash = key.replace(/^sha256:/, "");
    if (!/^[0-9a-f]{64}$/.test(hash) || typeof document !== "string" || sha256(document) !== hash) {
      throw new Error(`${where}: the entry ${key.slice(0, 23)}… is not "<sha256 of the document>": "<document>" (SHA-256 ids only: Relay's persistConfig needs "algorithm": "SHA256")`);
    }
    manifest.set(hash, document);
  }
  return manifest;
}

const APOLLO_FORMAT = "apollo-persisted-query-manifest";

/** The manifest's (hash, document) pairs, whichever of the formats it is. */
function manifestEntries(raw: Record<string, unknown>, where: string): Array<[string, unknown]> {
  if (raw.format === undefined) return Object.entries(raw);
  if (raw.format !== APOLLO_FORMAT || raw.version !== 1 || !Array.isArray(raw.operations)) {
    throw new Error(`${where}: a manifest with a "format" must be ${APOLLO_FORMAT} version 1 with its "operations"`);
  }
  return raw.operations.map((operation: unknown, index): [string, unknown] => {
    const { id, body } = (operation ?? {}) as { id?: unknown; body?: unknown };
    return [typeof id === "string" ? id : `operations[${index}]`, body];
  });
}

/** how many unlisted hashes `log` mode remembers having logged (then it starts again) */
const LOGGED_HASHES = 10_000;

function refusal(status: number, code: ErrorCode, message: string, outcome: string): Refusal {
  processMetrics().trustedDocuments.inc({ outcome });
  processMetrics().refused("gateway", "trustedDocuments");
  return { status, body: errorBody(code, message) };
}

/** The admission step of trusted documents: fills the document in from its hash, or refuses. */
export function trustedDocuments(options: {
  mode: TrustedDocumentsMode;
  manifest: Map<string, string>;
  introspection: boolean;
  logger: Logger;
  /** the APQ store's document of a hash (Apollo Server's own store, apq-store.ts) */
  apq?: (hash: string) => Promise<string | undefined>;
}) {
  const { mode, manifest, logger } = options;
  const logged = new Set<string>();
  return async (request: HTTPGraphQLRequest): Promise<Refusal | null> => {
    const fields = requestFields(request);
    if (fields === null) return null; // not a single GraphQL request: Apollo answers it
    const { query, hash: sentHash } = fields;
    if (fields.conflict) {
      return refusal(400, ErrorCode.BAD_REQUEST, "documentId and extensions.persistedQuery name different documents: send one of them", "refused_hash_mismatch");
    }
    if (sentHash !== undefined && !/^[0-9a-f]{64}$/.test(sentHash)) {
      return refusal(400, ErrorCode.BAD_REQUEST, "The document hash must be 64 lowercase hex digits (SHA-256)", "refused_unknown_hash");
    }
    if (query === undefined) {
      if (sentHash === undefined) return null;
      const document = manifest.get(sentHash);
      if (document !== undefined) {
        fields.setQuery(document);
        processMetrics().trustedDocuments.inc({ outcome: "served" });
        return null;
      }
      // not in the manifest: APQ's own store may know it, unless only listed documents are served;
      // a hash it does not know either is left to Apollo (PERSISTED_QUERY_NOT_FOUND, nothing run)
      if (mode !== "enforce" && !fields.documentId) {
        const registered = await options.apq?.(sentHash);
        if (registered !== undefined) fields.setQuery(registered);
        return null;
      }
      return refusal(400, ErrorCode.PERSISTED_QUERY_NOT_IN_LIST, "No trusted document has this hash", "refused_unknown_hash");
    }
    const hash = sha256(query);
    if (sentHash !== undefined && sentHash !== hash) {
      return refusal(400, ErrorCode.BAD_REQUEST, "The document hash sent is not the SHA-256 of the document sent", "refused_hash_mismatch");
    }
    if (manifest.has(hash)) {
      if (fields.documentId) fields.setQuery(query);
      processMetrics().trustedDocuments.inc({ outcome: "served" });
      return null;
    }
    if (mode === "off") return null;
    if (mode === "enforce") {
      if (options.introspection && isIntrospectionOnly(query, fields.operationName)) return null;
      return refusal(400, ErrorCode.PERSISTED_QUERY_NOT_IN_LIST, "Only trusted documents are served here: send the hash of a document of the manifest", "refused_unknown_document");
    }
    processMetrics().trustedDocuments.inc({ outcome: "unlisted_served" });
    if (!logged.has(hash)) {
      if (logged.size >= LOGGED_HASHES) logged.clear();
      logged.add(hash);
      logger.warn("document not in the trusted documents", { requestId: request.headers.get(REQUEST_ID_HEADER), documentHash: hash, operationName: typeof fields.operationName === "string" ? fields.operationName.slice(0, 100) : null });
    }
    return null;
  };
}

interface RequestFields {
  query?: string;
  hash?: string;
  documentId: boolean;
  /** a documentId and an APQ hash that differ */
  conflict: boolean;
  operationName?: unknown;
  setQuery(query: string): void;
}

/**
 * The document, its hash and operation name of a POST body or a GET query string; null when
 * neither is one GraphQL request. `setQuery` puts a document in for its hash, which it takes out
 * (`documentId`, the APQ extension): Apollo then runs that text as sent whole, and registers nothing.
 */
function requestFields(request: HTTPGraphQLRequest): RequestFields | null {
  if (request.method === "POST") {
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || Array.isArray(body)) return null;
    const documentId = typeof body.documentId === "string" ? body.documentId : undefined;
    const bare = withBareHash(body.extensions);
    if (bare !== body.extensions) body.extensions = bare;
    return {
      // an empty query is none, as Apollo Server reads it (graphql-ws requires the field: a persisted subscription sends "")
      ...(typeof body.query === "string" && body.query !== "" ? { query: body.query } : {}),
      ...hashOf(documentId, body.extensions),
      documentId: documentId !== undefined,
      operationName: body.operationName,
      setQuery(query) {
        body.query = query;
        delete body.documentId;
        const rest = withoutPersistedQuery(body.extensions);
        if (rest === undefined) delete body.extensions;
        else body.extensions = rest;
      },
    };
  }
  if (request.method !== "GET") return null;
  const search = new URLSearchParams(request.search);
  let extensions: unknown;
  try {
    extensions = JSON.parse(search.get("extensions") ?? "null");
  } catch {
    extensions = null; // Apollo answers the unreadable extensions
  }
  const bare = withBareHash(extensions);
  if (bare !== extensions) {
    extensions = bare;
    search.set("extensions", JSON.stringify(bare));
    request.search = `?${search.toString()}`;
  }
  const documentId = search.get("documentId") ?? undefined;
  const query = search.get("query") || undefined;
  return {
    ...(query !== undefined ? { query } : {}),
    ...hashOf(documentId, extensions),
    documentId: documentId !== undefined,
    operationName: search.get("operationName"),
    setQuery(text) {
      search.set("query", text);
      search.delete("documentId");
      const rest = withoutPersistedQuery(extensions);
      if (rest === undefined) search.delete("extensions");
      else search.set("extensions", JSON.stringify(rest));
      request.search = `?${search.toString()}`;
    },
  };
}

function hashOf(documentId: string | undefined, extensions: unknown): { hash?: string; conflict: boolean } {
  const apq = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
  if (documentId === undefined) return typeof apq === "string" ? { hash: apq, conflict: false } : { conflict: false };
  const hash = documentId.replace(/^sha256:/, "");
  return { hash, conflict: apq !== undefined && apq !== hash };
}

/**
 * The extensions with APQ's hash as bare hex: graphql-codegen's documents carry `sha256:<hex>`,
 * which Apollo Client's persisted query link sends as it is, and Apollo Server's APQ compares
 * and registers the bare hex. The same object when there is nothing to change.
 */
function withBareHash(extensions: unknown): unknown {
  const persistedQuery = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery;
  const hash = persistedQuery?.sha256Hash;
  if (typeof hash !== "string" || !hash.startsWith("sha256:")) return extensions;
  return { ...(extensions as object), persistedQuery: { ...persistedQuery, sha256Hash: hash.slice("sha256:".length) } };
}

/** The request's extensions without the APQ hash (undefined when nothing else is left). */
function withoutPersistedQuery(extensions: unknown): unknown {
  if (!extensions || typeof extensions !== "object" || Array.isArray(extensions)) return extensions ?? undefined;
  const { persistedQuery: _hash, ...rest } = extensions as Record<string, unknown>;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

function isIntrospectionOnly(query: string, operationName: unknown): boolean {
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true, maxTokens: 20_000 });
  } catch {
    return false;
  }
  return introspectionOnly(document, typeof operationName === "string" ? operationName : null);
}

/** The operation reads only `__schema`, `__type` and `__typename`. */
export function introspectionOnly(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation || operation.operation !== "query") return false;
  return operation.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && (s.name.value === "__schema" || s.name.value === "__type" || s.name.value === "__typename"),
  );
}
