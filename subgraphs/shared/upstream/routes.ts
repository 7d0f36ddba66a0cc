/**
 * The route names of upstream paths, for the counters, the metrics and the spans: the one list of
 * the directory's API prefixes (docs/observability.md).
 */

/**
 * The prefixes of the directory's APIs; below one, a path's segments alternate between collection
 * and id. `/directory/api` comes after its versioned `/4.0`: the legacy reference lists
 * (`/directory/api/work-contract-hiring-types`…) carry no version (docs/interface.md).
 */
export const API_PREFIXES = ["/service-api", "/api/v3", "/directory/api/4.0", "/directory/api", "/organization/structure/api"] as const;

/**
 * A path as an answer may name it: without its API prefix (`/service-api/employees/1` is
 * `/employees/1`), so that no answer carries the upstream's paths (docs/graph.md#error-codes).
 */
export function publicPath(path: string): string {
  const prefix = apiPrefixOf(path.replace(/[?#].*$/, ""));
  return prefix === undefined ? path : path.slice(prefix.length) || "/";
}

/** The API prefix a path (without query) lies below, if any. */
export function apiPrefixOf(path: string): string | undefined {
  return API_PREFIXES.find((x) => path === x || path.startsWith(`${x}/`));
}

/**
 * The route name of a path: below a known API prefix, segments alternate between collection and
 * id, and ids become `{id}` (`/service-api/employees/42/x` → `/service-api/employees/{id}/x`).
 */
export function routeOf(method: string, path: string): string {
  const p = path.replace(/[?#].*$/, "");
  const prefix = apiPrefixOf(p);
  if (prefix === undefined) return `${method} ${p}`;
  const rest = p.slice(prefix.length).split("/").slice(1);
  return `${method} ${prefix}${rest.map((s, i) => (i % 2 === 1 && s !== "" ? "/{id}" : `/${s}`)).join("")}`;
}
