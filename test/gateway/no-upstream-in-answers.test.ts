import { readFileSync } from "node:fs";
import {
  buildSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { describe, expect, it } from "vitest";
import { API_PREFIXES } from "../../subgraphs/shared/upstream/routes.js";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf } from "../helpers/operations.js";

/**
 * Nothing of the upstream in an answer (docs/security.md#file-links): every field of the API
 * schema (schema/api.graphql) that can hold a string — String, ID, URL, JSON, the date scalars,
 * in lists too — is selected over the demo company's records, reached from every root field that
 * needs no argument, from the operations of `operations/`, and from `nodes(nodeIds:)` over the
 * `nodeId`s those answers hold (two rounds), through the gateway. No answer may hold the
 * upstream's host:port, one of its API path prefixes, a `token=` query parameter or a credential
 * of the facade's; nor may an error when the upstream refuses; nor may a subscription's event
 * (each subscription field over SSE, every text field selected: the employee's change made by a
 * legacy write and taken in from the directory's events, the others published on the feed). Every object type with such fields must be reached with all of them selected,
 * but those listed in UNREACHED with the reason.
 */

const schema: GraphQLSchema = buildSchema(readFileSync(new URL("../../schema/api.graphql", import.meta.url), "utf8"));

/** scalars that cannot hold a string */
const NOT_TEXT = new Set(["Int", "Float", "Boolean"]);

/** object types the walk cannot reach over the demo company, and why */
const UNREACHED: Record<string, string> = {
  // a mutation's results: not read by a query
  TimeEntryValidationError: "a refusal of updateTimeEntry (test/legacy-time/time-entry-update.test.ts)",
  InvalidInputError: "a refusal of a mutation",
  NotFoundError: "a refusal of a mutation",
  ForbiddenError: "a refusal of a mutation",
  ConflictError: "a refusal of a mutation",
};

const DEPTH = 4;

function requiredArgs(field: GraphQLField<unknown, unknown>): boolean {
  return field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined);
}

function implementsNode(type: GraphQLCompositeType): boolean {
  return isObjectType(type) && type.getInterfaces().some((i) => i.name === "Node");
}

/** The selection of every text field of `type`, nested objects `depth` levels down; a Node below the top is only its nodeId. */
function selection(type: GraphQLCompositeType, depth: number, top = true): string {
  if (!top && (implementsNode(type) || (isInterfaceType(type) && type.name === "Node"))) return `{ __typename ... on Node { nodeId } }`;
  if (isAbstractType(type)) {
    const members = schema.getPossibleTypes(type);
    return `{ __typename ${members.map((m) => `... on ${m.name} ${selection(m, depth, false)}`).join(" ")} }`;
  }
  const parts = ["__typename"];
  for (const field of Object.values((type as GraphQLObjectType).getFields())) {
    if (requiredArgs(field)) continue;
    const named = getNamedType(field.type);
    if (isScalarType(named)) {
      if (!NOT_TEXT.has(named.name)) parts.push(field.name);
    } else if (!isEnumType(named) && depth > 0) {
      parts.push(`${field.name} ${selection(named as GraphQLCompositeType, depth - 1, false)}`);
    }
  }
  return `{ ${parts.join(" ")} }`;
}

/** Every text field of every object type: `Type.field`. */
function textFields(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__") || type === schema.getQueryType() || type === schema.getMutationType() || type === schema.getSubscriptionType()) continue;
    const fields = Object.values(type.getFields()).filter((f) => {
      const named = getNamedType(f.type);
      return isScalarType(named) && !NOT_TEXT.has(named.name) && !requiredArgs(f);
    });
    if (fields.length > 0) out.set(type.name, new Set(fields.map((f) => f.name)));
  }
  return out;
}

interface Walk {
  /** the caller's headers (forward mode: its bearer token) */
  headers?: Record<string, string>;
  answers: string[];
  /** the text fields seen in an answer, by type */
  seen: Map<string, Set<string>>;
  nodeIds: Map<string, Set<string>>;
}

function record(walk: Walk, value: unknown): void {
  if (Array.isArray(value)) return value.forEach((v) => record(walk, v));
  if (typeof value !== "object" || value === null) return;
  const object = value as Record<string, unknown>;
  const typename = object.__typename;
  if (typeof typename === "string") {
    const seen = walk.seen.get(typename) ?? new Set<string>();
    for (const key of Object.keys(object)) seen.add(key);
    walk.seen.set(typename, seen);
    if (typeof object.nodeId === "string") {
      const ids = walk.nodeIds.get(typename) ?? new Set<string>();
      if (ids.size < 20) ids.add(object.nodeId);
      walk.nodeIds.set(typename, ids);
    }
  }
  for (const v of Object.values(object)) record(walk, v);
}

async function ask(stack: GatewayStack, walk: Walk, source: string, variables?: Record<string, unknown>): Promise<void> {
  const res = await stack.query(source, variables, walk.headers);
  walk.answers.push(JSON.stringify(res));
  record(walk, res.data);
}

async function walkGraph(stack: GatewayStack, headers?: Record<string, string>, ingests = false): Promise<Walk> {
  const walk: Walk = { headers, answers: [], seen: new Map(), nodeIds: new Map() };
  const query = schema.getQueryType()!;
  for (const field of Object.values(query.getFields())) {
    if (requiredArgs(field)) continue;
    const named = getNamedType(field.type);
    if (isScalarType(named) || isEnumType(named)) continue;
    await ask(stack, walk, `{ ${field.name} ${selection(named as GraphQLCompositeType, DEPTH)} }`);
  }
  const demo = pickDemoData(stack.directory.company);
  for (const operation of loadOperations()) await ask(stack, walk, operation.source, variablesOf(demo, operation));
  const asked = new Set<string>();
  for (let round = 0; round < 2; round++) {
    for (const [typename, ids] of [...walk.nodeIds]) {
      const fresh = [...ids].filter((id) => !asked.has(id));
      if (fresh.length === 0) continue;
      fresh.forEach((id) => asked.add(id));
      const type = schema.getType(typename) as GraphQLObjectType;
      await ask(stack, walk, `query($ids: [ID!]!) { nodes(nodeIds: $ids) { __typename ... on ${typename} ${selection(type, DEPTH)} } }`, { ids: fresh });
    }
  }
  await walkSubscriptions(stack, walk, ingests);
  return walk;
}

/**
 * Each subscription field with every text field selected, over the gateway's SSE: the employee's
 * change is a real one where the stack ingests the directory's events (a legacy write through the
 * gateway, its event read from `GET /events`), else published on the feed as the employment's and
 * job position's are (the directory makes no such change), for records the demo company holds.
 */
async function walkSubscriptions(stack: GatewayStack, walk: Walk, ingests: boolean): Promise<void> {
  const demo = pickDemoData(stack.directory.company);
  const subscription = schema.getSubscriptionType();
  if (!subscription) return;
  const client = createSseClient({ url: `${stack.gateway.url.replace(/\/$/, "")}/graphql/stream`, headers: walk.headers ?? {}, retryAttempts: 0 });
  try {
    const events: unknown[] = [];
    const stops = Object.values(subscription.getFields()).map((field) =>
      client.subscribe(
        { query: `subscription { ${field.name} ${selection(getNamedType(field.type) as GraphQLCompositeType, DEPTH)} }` },
        { next: (event) => events.push(event), error: (err) => events.push({ error: String(err) }), complete: () => {} },
      ),
    );
    const employee = demo.profile.id;
    const changes = [
      ...(ingests ? [] : [{ type: "employee", id: employee, topic: "employee.updated" }]),
      { type: "employment", id: demo.profile.employmentIds[0]!, topic: "employment.updated" },
      { type: "job-position", id: [...demo.lookup.jobPositions.keys()][0]!, topic: "job-position.updated" },
    ];
    let seq = 0;
    // until each field has an event: the subscriptions open asynchronously
    for (let i = 0; i < 100 && new Set(events.map((e) => Object.keys((e as { data?: object }).data ?? {})[0])).size < stops.length; i++) {
      if (ingests) await stack.query(`mutation($id: ID!, $name: String!) { updateLegacyUser(id: $id, input: { familyName: $name }) { __typename } }`, { id: employee, name: `Walked${i}` }, walk.headers);
      for (const c of changes) {
        await stack.feed.publish({ id: `walk-${Date.now()}-${++seq}`, topic: c.topic, occurredAt: new Date().toISOString(), resource: { type: c.type, id: c.id }, establishmentIds: [], previousAttributes: { status: "draft" } });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    stops.forEach((stop) => stop());
    for (const event of events) {
      walk.answers.push(JSON.stringify(event));
      record(walk, (event as { data?: unknown }).data);
    }
  } finally {
    client.dispose();
  }
}

/** What no answer may hold: the upstream's address and path prefixes, a file token, the facade's credentials. */
function leaks(stack: GatewayStack): Array<[string, RegExp]> {
  const upstream = new URL(stack.directory.url);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [
    ["the upstream's host:port", new RegExp(escape(upstream.host))],
    ["the upstream's port on any host name", new RegExp(`(localhost|127\\.0\\.0\\.1|\\[::1\\]):${upstream.port}\\b`)],
    ...API_PREFIXES.map((prefix): [string, RegExp] => [`the API prefix ${prefix}`, new RegExp(`${escape(prefix)}/`)]),
    ["a token query parameter", /[?&](access_)?token=/i],
    ["a bearer token", /Bearer\s+[A-Za-z0-9._~+/-]+/],
    ["the legacy API key", /demo-api-key|service application=/],
    ["the client secret", /demo-secret/],
  ];
}

/** the leaks found in a walk's answers, each with its context */
function leaksIn(stack: GatewayStack, walk: Walk): string[] {
  const found: string[] = [];
  for (const answer of walk.answers) {
    for (const [what, pattern] of leaks(stack)) {
      const match = pattern.exec(answer);
      if (match) found.push(`${what}: …${answer.slice(Math.max(0, match.index - 120), match.index + 60)}…`);
    }
  }
  return found.slice(0, 10);
}

describe("nothing of the upstream in an answer", () => {
  // the directory's events taken in, so that a legacy write reaches the employee's subscribers
  const stack = useGatewayStack({ env: { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "20" } });

  it("no field that can hold a string answers the upstream's address, its paths, a token or a credential", async () => {
    const walk = await walkGraph(stack, undefined, true);
    expect(leaksIn(stack, walk)).toEqual([]);

    // the walk reached every text field of every type, but the types it cannot reach
    const missing: string[] = [];
    for (const [typename, fields] of textFields()) {
      if (typename in UNREACHED) continue;
      const seen = walk.seen.get(typename);
      for (const field of fields) if (!seen?.has(field)) missing.push(`${typename}.${field}`);
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it("nor does an error: a failed upstream call is named without the upstream's address or API prefix", async () => {
    const faults = (body: object) =>
      fetch(`${stack.directory.url}/_admin/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await faults({ errorRate: 1, errorStatus: 403 });
    try {
      const answers: string[] = [];
      for (const source of [`{ employee(id: "7") { id givenName legacyUser { login } } }`, `{ employees(first: 2) { nodes { id } } }`, `{ axisSections(first: 2) { nodes { id } } }`]) {
        const res = await stack.query(source);
        expect(res.errors?.length, source).toBeGreaterThan(0);
        answers.push(JSON.stringify(res));
      }
      for (const answer of answers) for (const [what, pattern] of leaks(stack)) expect(pattern.test(answer), `${what} in ${answer.slice(0, 300)}`).toBe(false);
    } finally {
      await faults({ errorRate: 0 });
    }
  });
});

describe("nothing of the upstream in an answer, forward mode", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" } });

  it("the same walk with a caller's own token finds no upstream address, path, token or credential either", async () => {
    const token = await stack.token("demo-client");
    const walk = await walkGraph(stack, { authorization: `Bearer ${token}` });
    expect(walk.answers.length).toBeGreaterThan(20);
    expect(leaksIn(stack, walk)).toEqual([]);
    // nor the caller's own token
    expect(walk.answers.filter((answer) => answer.includes(token))).toEqual([]);
  }, 120_000);
});
