import { createRequire } from "node:module";

/**
 * The one check of what gateway/apollo/ patches in `@apollo/gateway` and reads of
 * `@apollo/query-planner` (docs/performance.md#the-gateways-seams). Every patch of this folder relies on
 * internals no API promises: a version of either package other than the one they were checked
 * against, or an internal that is missing or has another shape, turns all of them off together and
 * the gateway runs on stock `@apollo/gateway` (seams.ts), with one warning. The checks are listed
 * one by one so that test/gateway/apollo-internals.test.ts fails the build on the one that broke.
 */

/** The versions every patch of gateway/apollo/ was checked against (package.json pins them exactly). */
export const CHECKED_VERSIONS = { gateway: "2.14.4", queryPlanner: "2.14.4" } as const;

const require = createRequire(import.meta.url);
/** `require` as @apollo/gateway itself resolves: its own copies of the planner and of federation-internals. */
const gatewayRequire = createRequire(require.resolve("@apollo/gateway"));
const internalsRequire = createRequire(gatewayRequire.resolve("@apollo/federation-internals"));

/** The CommonJS modules whose exports the patches replace or read. */
export interface ApolloModules {
  gateway: typeof import("@apollo/gateway");
  /** @apollo/gateway's dist/resultShaping.js (result-shaping.ts replaces `computeResponse`) */
  resultShaping: Record<string, unknown>;
  /** @apollo/federation-internals' dist/operations.js (result-shaping.ts wraps `operationFromDocument`) */
  operations: Record<string, unknown>;
  /** @apollo/federation-internals' index (result-shaping.ts reads its functions) */
  federationInternals: Record<string, unknown>;
}

export function apolloModules(): ApolloModules {
  return {
    gateway: gatewayRequire("@apollo/gateway") as ApolloModules["gateway"],
    resultShaping: gatewayRequire("./resultShaping.js") as Record<string, unknown>,
    operations: internalsRequire("./operations.js") as Record<string, unknown>,
    federationInternals: gatewayRequire("@apollo/federation-internals") as Record<string, unknown>,
  };
}

/** The installed versions: @apollo/gateway's, and that of the planner it loads. */
export function installedVersions(): { gateway: string; queryPlanner: string } {
  const version = (resolve: (id: string) => string, name: string): string =>
    (createRequire(resolve(name))("../package.json") as { version: string }).version;
  return { gateway: version(require.resolve, "@apollo/gateway"), queryPlanner: version(gatewayRequire.resolve, "@apollo/query-planner") };
}

/** One internal a patch relies on, and how it is checked. */
export interface InternalCheck {
  /** what is relied on, and by which file */
  name: string;
  /** null when it holds; else what is wrong */
  problem(modules: ApolloModules): string | null;
}

/** A function, own or on the prototype chain, taking `arity` declared parameters. */
function method(owner: object | undefined, name: string, arity: number): string | null {
  const value = owner ? (owner as Record<string, unknown>)[name] : undefined;
  if (typeof value !== "function") return `${name} is ${typeof value}, not a function`;
  return value.length === arity ? null : `${name} takes ${value.length} parameters, not ${arity}`;
}

/** An export a patch replaces: a function that can be assigned, and that the library reads at each call. */
function replaceableExport(module: Record<string, unknown>, name: string, arity: number): string | null {
  const descriptor = Object.getOwnPropertyDescriptor(module, name);
  if (!descriptor) return `the export ${name} is missing`;
  if (!("value" in descriptor) || !descriptor.writable || !descriptor.configurable) return `the export ${name} cannot be replaced (not a writable, configurable value)`;
  return method(module, name, arity);
}

export const INTERNALS: readonly InternalCheck[] = [
  {
    name: "RemoteGraphQLDataSource.prototype.sendRequest(request, context): replaced by data-source.ts",
    problem: ({ gateway }) => method(gateway.RemoteGraphQLDataSource.prototype, "sendRequest", 2),
  },
  {
    name: "RemoteGraphQLDataSource.prototype.parseBody and errorFromResponse: called by data-source.ts's sendRequest",
    problem: ({ gateway }) => method(gateway.RemoteGraphQLDataSource.prototype, "parseBody", 3) ?? method(gateway.RemoteGraphQLDataSource.prototype, "errorFromResponse", 1),
  },
  {
    name: "RemoteGraphQLDataSource.prototype.process(options): overridden and called with kind \"incoming operation\" by data-source.ts",
    problem: ({ gateway }) => {
      const source = String(gateway.RemoteGraphQLDataSource.prototype.process);
      return method(gateway.RemoteGraphQLDataSource.prototype, "process", 1) ?? (source.includes("INCOMING_OPERATION") ? null : "process no longer reads the request's kind");
    },
  },
  {
    name: "resultShaping.js exports computeResponse({ operation, variables, input, introspectionHandling }): replaced by result-shaping.ts",
    problem: ({ resultShaping }) => replaceableExport(resultShaping, "computeResponse", 1),
  },
  {
    name: "federation-internals' operations.js exports operationFromDocument(schema, document, options), re-exported by a getter: wrapped by result-shaping.ts",
    problem: ({ operations, federationInternals }) => {
      const reexport = Object.getOwnPropertyDescriptor(federationInternals, "operationFromDocument");
      return replaceableExport(operations, "operationFromDocument", 3) ?? (reexport?.get ? null : "the index re-exports operationFromDocument as a copy: a replacement would not be seen");
    },
  },
  {
    name: "federation-internals' isSubtype, isCompositeType, isCustomScalarType, Variable, ERRORS.INVALID_GRAPHQL.err, assert: read by result-shaping.ts",
    problem: ({ federationInternals: f }) => {
      for (const name of ["isSubtype", "isCompositeType", "isCustomScalarType", "Variable", "assert"]) if (typeof f[name] !== "function") return `${name} is missing`;
      const errors = f.ERRORS as { INVALID_GRAPHQL?: { err?: unknown } } | undefined;
      return typeof errors?.INVALID_GRAPHQL?.err === "function" ? null : "ERRORS.INVALID_GRAPHQL.err is missing";
    },
  },
];

export type InternalsVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Whether the patches may run: the installed versions are the checked ones (`versions` is
 * injectable, for the test of the fallback) and every internal of INTERNALS holds.
 */
export function checkInternals(versions: { gateway: string; queryPlanner: string } = installedVersions()): InternalsVerdict {
  if (versions.gateway !== CHECKED_VERSIONS.gateway || versions.queryPlanner !== CHECKED_VERSIONS.queryPlanner) {
    return {
      ok: false,
      reason: `@apollo/gateway ${versions.gateway} and @apollo/query-planner ${versions.queryPlanner} are not the versions gateway/apollo/ was checked against (${CHECKED_VERSIONS.gateway}, ${CHECKED_VERSIONS.queryPlanner})`,
    };
  }
  let modules: ApolloModules;
  try {
    modules = apolloModules();
  } catch (err) {
    return { ok: false, reason: `a module gateway/apollo/ patches cannot be loaded: ${(err as Error).message}` };
  }
  for (const check of INTERNALS) {
    const problem = check.problem(modules);
    if (problem !== null) return { ok: false, reason: `${check.name}: ${problem}` };
  }
  return { ok: true };
}
