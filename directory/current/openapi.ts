import { Type, type TSchema } from "@sinclair/typebox";
import { COLLECTIONS, OAUTH_ERROR, PROBLEM, RESOURCE_SHAPES, TOKEN, collectionShape } from "../../contract/rest-shapes.js";
import { API_VERSION, ALL_SCOPES } from "./auth.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "./engine.js";
import type { ResourceDef } from "./resource.js";

/**
 * The OpenAPI 3.1 document of the current API (`GET /service-api/openapi.json`), generated from
 * what the service already declares: the resource definitions the engine serves (their lists,
 * single reads, filters and sorts) and the response shapes of contract/rest-shapes.ts (TypeBox
 * schemas are JSON Schema 2020-12, the dialect OpenAPI 3.1 uses, so they go in as they are). The
 * few routes that are not a resource (the token endpoint, the test delivery, portrait files, this
 * document) are described beside them. A test checks that every route of the current API is in it
 * and that answers validate against it (test/directory/openapi.test.ts).
 */

export const OPENAPI_PATH = "/service-api/openapi.json";

type Json = Record<string, unknown>;

/** `job-position` -> `JobPosition`: the component name of an item type. */
export function schemaName(type: string): string {
  return type.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

/** `job-positions` -> `JobPositions`. */
const pascal = schemaName;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/**
 * A TypeBox schema as plain JSON: its symbols (TypeBox's own bookkeeping) dropped, and a union of
 * string literals (how rest-shapes.ts writes an enum) written as the `enum` it means, the form
 * client and schema generators turn into an enumeration.
 */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema), (_key, value) => asEnum(value)) as Json;

function asEnum(value: unknown): unknown {
  const anyOf = (value as { anyOf?: unknown } | null)?.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length === 0) return value;
  if (!anyOf.every((s) => s && typeof s.const === "string" && Object.keys(s).every((k) => k === "const" || k === "type"))) return value;
  const { anyOf: _, ...rest } = value as Json;
  return { ...rest, type: "string", enum: anyOf.map((s) => s.const as string) };
}

const PROBLEM_JSON = { "application/problem+json": { schema: ref("Problem") } };
const problemResponse = (description: string) => ({ description, content: PROBLEM_JSON });
const COMMON_ERRORS = {
  "400": problemResponse("A bad parameter or `Api-Version`: `errors` names each one"),
  "401": problemResponse("No valid bearer token"),
  "403": problemResponse("The token lacks the scope"),
};
const RESPONSE_HEADERS = {
  ETag: { description: "Weak entity tag of the answer", schema: { type: "string" } },
  "Api-Version": { description: "The API version that answered", schema: { type: "string", const: API_VERSION } },
};
const NOT_MODIFIED = { description: "`If-None-Match` matches", headers: { ETag: RESPONSE_HEADERS.ETag } };
const PRECONDITION_FAILED = problemResponse("`If-Match` does not match");

const API_VERSION_PARAM = { $ref: "#/components/parameters/ApiVersion" };
const IF_NONE_MATCH = { $ref: "#/components/parameters/IfNoneMatch" };
const IF_MATCH = { $ref: "#/components/parameters/IfMatch" };
const INCLUDE = { $ref: "#/components/parameters/Include" };

function security(scope: string, write = false): Json[] {
  return [{ oauth2: write ? [`${scope}.readwrite`] : [`${scope}.readonly`, `${scope}.readwrite`] }];
}

function listOperation(def: ResourceDef<any>): Json {
  const sorts = ["id", ...Object.keys(def.sorts ?? {}).filter((k) => k !== "id")];
  const filters = Object.keys(def.filters ?? {});
  return {
    operationId: `list${pascal(def.collection)}`,
    tags: [def.collection],
    summary: `List ${def.collection}`,
    description:
      `Keyset-paged: follow \`links.next.href\`. Unknown or repeated parameters are a 400.` +
      (def.dynamicFilter ? " Also filters `value.<property>` and `-value.<property>` (an attribute value's member)." : ""),
    security: security(def.scope),
    parameters: [
      API_VERSION_PARAM,
      IF_NONE_MATCH,
      IF_MATCH,
      INCLUDE,
      { name: "limit", in: "query", description: `Items per page (default ${DEFAULT_LIMIT})`, schema: { type: "integer", minimum: 0, maximum: MAX_LIMIT } },
      { name: "page", in: "query", description: "A cursor from `links.next` or `links.prev`", schema: { type: "string" } },
      // only on a list that declares its sorts, as production offers sort on some lists only
      ...(def.sorts === undefined
        ? []
        : [
            {
              name: "sort",
              in: "query",
              description: `Comma-separated keys, \`-\` for descending, ties broken on \`id\`: ${sorts.map((s) => `\`${s}\``).join(", ")}`,
              schema: { type: "string", pattern: `^-?(${sorts.join("|")})(,-?(${sorts.join("|")}))*$` },
            },
          ]),
      ...filters.map((name) => ({
        name,
        in: "query",
        description: "Comma-separated values: an item matching any of them is listed",
        schema: { type: "string" },
      })),
    ],
    responses: {
      "200": { description: `A page of ${def.collection}`, headers: RESPONSE_HEADERS, content: { "application/json": { schema: ref(`${pascal(def.collection)}Page`) } } },
      "304": NOT_MODIFIED,
      ...COMMON_ERRORS,
      "412": PRECONDITION_FAILED,
    },
  };
}

function readOperation(def: ResourceDef<any>): Json {
  const item = schemaName(def.type);
  const content: Json = { "application/json": { schema: ref(item) } };
  if (def.download) content["image/*"] = { schema: { type: "string", contentMediaType: "image/png" } };
  return {
    operationId: `get${item}`,
    tags: [def.collection],
    summary: `Read one ${def.type}`,
    ...(def.download ? { description: "With `Accept: image/*` (and not JSON), the file itself." } : {}),
    security: security(def.scope),
    parameters: [
      { name: "id", in: "path", required: true, schema: { type: "string", minLength: 1 } },
      API_VERSION_PARAM,
      IF_NONE_MATCH,
      IF_MATCH,
      INCLUDE,
    ],
    responses: {
      "200": { description: `The ${def.type}`, headers: RESPONSE_HEADERS, content },
      "304": NOT_MODIFIED,
      ...COMMON_ERRORS,
      "404": problemResponse("No such record, or not visible to the caller"),
      "412": PRECONDITION_FAILED,
    },
  };
}

/** The routes that are not a resource's list or single read. */
function otherPaths(): Record<string, Json> {
  return {
    "/connect/token": {
      post: {
        operationId: "requestToken",
        tags: ["authentication"],
        summary: "A bearer token (OAuth 2.0 client credentials; client_secret_post or HTTP Basic)",
        security: [],
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                required: ["grant_type"],
                properties: {
                  grant_type: { const: "client_credentials" },
                  client_id: { type: "string" },
                  client_secret: { type: "string" },
                  scope: { type: "string", description: "Space-separated; default: every scope of the client" },
                },
              },
            },
          },
        },
        responses: {
          "200": { description: "The token", content: { "application/json": { schema: ref("Token") } } },
          "400": { description: "A bad grant or scope", content: { "application/json": { schema: ref("OAuthError") } } },
          "401": { description: "Unknown client or wrong secret", content: { "application/json": { schema: ref("OAuthError") } } },
        },
      },
    },
    "/service-api/webhook-deliveries": {
      post: {
        operationId: "triggerWebhookDelivery",
        tags: ["webhook-deliveries"],
        summary: "Deliver a sample event to a webhook endpoint now",
        description: "The endpoint in the body or in `?webhookEndpoint.id=`; `event.topic` may be `ping`.",
        security: security("webhook-deliveries", true),
        parameters: [
          API_VERSION_PARAM,
          INCLUDE,
          { name: "webhookEndpoint.id", in: "query", schema: { type: "string" } },
          { name: "event.topic", in: "query", schema: { type: "string" } },
        ],
        requestBody: {
          required: false,
          content: {
            "application/json": {
              schema: { type: "object", properties: { webhookEndpoint: { type: "object", required: ["id"], properties: { id: { type: "string" } } } } },
            },
          },
        },
        responses: {
          "202": { description: "The delivery and its first attempt", headers: RESPONSE_HEADERS, content: { "application/json": { schema: ref("WebhookDelivery") } } },
          ...COMMON_ERRORS,
          "404": problemResponse("No such webhook endpoint"),
        },
      },
    },
    "/service-api/webhook-endpoints": {
      post: {
        operationId: "registerWebhookEndpoint",
        tags: ["webhook-endpoints"],
        summary: "Declare a webhook endpoint; it is active once it has echoed the activation GET (`?echo=<value>`) sent to it",
        description:
          "Each delivery POSTs the event object as JSON, signed with `Lucca-Timestamp` (UTC, ISO 8601) and `Lucca-Signature` (base64 HMAC-SHA256, keyed with the endpoint's `secret`, of `<timestamp>.<raw body>`). The secret is answered here only. `webhookUrl` is https, or http to a loopback host.",
        security: security("webhook-endpoints", true),
        parameters: [API_VERSION_PARAM],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name", "webhookUrl", "topics"],
                additionalProperties: false,
                properties: {
                  name: { type: "string", minLength: 1, maxLength: 255 },
                  webhookUrl: { type: "string", format: "uri" },
                  apiVersion: { type: "string", format: "date" },
                  topics: { type: "array", minItems: 1, items: { type: "string" } },
                  businessEstablishments: { type: ["array", "null"], minItems: 1, items: { type: "object", required: ["id"], properties: { id: { type: "string" } } } },
                  status: { type: "string", enum: ["active", "inactive"] },
                },
              },
            },
          },
        },
        responses: {
          "201": { description: "The endpoint and its secret", headers: RESPONSE_HEADERS, content: { "application/json": { schema: ref("WebhookEndpoint") } } },
          ...COMMON_ERRORS,
        },
      },
    },
    "/service-api/webhook-endpoints/{id}": {
      delete: {
        operationId: "deleteWebhookEndpoint",
        tags: ["webhook-endpoints"],
        summary: "Remove a declared webhook endpoint",
        security: security("webhook-endpoints", true),
        parameters: [API_VERSION_PARAM, { name: "id", in: "path", required: true, schema: { type: "string", minLength: 1 } }],
        responses: {
          "204": { description: "Removed" },
          ...COMMON_ERRORS,
          "404": problemResponse("No such webhook endpoint"),
        },
      },
    },
    "/service-api/files/{id}": {
      get: {
        operationId: "getFile",
        tags: ["portraits"],
        summary: "A portrait's image, at the address its employee's `links.portrait` gives (no bearer token: the address carries one)",
        security: [],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", minLength: 1 } },
          { name: "token", in: "query", required: true, schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "The image", content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } } } },
          "404": problemResponse("No file at this address, or a bad token"),
        },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: "getOpenApiDocument",
        tags: ["documentation"],
        summary: "This document",
        security: [],
        responses: { "200": { description: "The OpenAPI 3.1 document", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  };
}

/** The whole document, for a service whose absolute base is `origin` (`http://127.0.0.1:4010`). */
export function openApiDocument(resources: readonly ResourceDef<any>[], origin: string): Json {
  const paths: Record<string, Json> = {};
  for (const def of resources) {
    if (def.list ?? true) paths[`/service-api/${def.collection}`] = { get: listOperation(def) };
    if (def.single ?? true) paths[`/service-api/${def.collection}/{id}`] = { get: readOperation(def) };
  }
  for (const [path, operations] of Object.entries(otherPaths())) paths[path] = { ...paths[path], ...operations };

  const schemas: Record<string, Json> = {};
  for (const [type, shape] of Object.entries(RESOURCE_SHAPES)) schemas[schemaName(type)] = plain(shape);
  for (const [collection, type] of Object.entries(COLLECTIONS)) {
    schemas[`${pascal(collection)}Page`] = plain(collectionShape(collection, Type.Unsafe(ref(schemaName(type)))));
  }
  schemas.Problem = plain(PROBLEM);
  schemas.Token = plain(TOKEN);
  schemas.OAuthError = plain(OAUTH_ERROR);

  return {
    openapi: "3.1.0",
    info: {
      title: "Directory service, current API (in-process implementation)",
      version: API_VERSION,
      description: "Generated from the service's own resource declarations and response shapes.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: origin }],
    security: [{ oauth2: [] }],
    paths,
    components: {
      schemas,
      parameters: {
        ApiVersion: { name: "Api-Version", in: "header", required: true, schema: { type: "string", const: API_VERSION } },
        IfNoneMatch: { name: "If-None-Match", in: "header", schema: { type: "string" } },
        IfMatch: { name: "If-Match", in: "header", schema: { type: "string" } },
        Include: {
          name: "include",
          in: "query",
          description: "`totalCount`, `links`, `embedded`: comma-separated or repeated",
          style: "form",
          explode: false,
          schema: { type: "array", items: { enum: ["totalCount", "links", "embedded"] } },
        },
      },
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: `${origin}/connect/token`, scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, s])) } },
        },
      },
    },
  };
}
