import { takesParam, publishedParams } from "../contract/current-params.js";
import { LEGACY_OPERATIONS, LEGACY_READS_UNSHOWN } from "../contract/legacy-params.js";
import { errorBodyFor, problemBody } from "./http/errors.js";
import type { DirectoryResponse } from "./http/router.js";

/**
 * Strict mode (DirectoryOptions.strict): every request checked against the contract before it is
 * served. The current API takes only the operations and parameters of contract/current-params.ts;
 * the legacy API only the operations of contract/legacy-params.ts, with the parameters the
 * interface names where it names them. The token endpoint is the OAuth one, checked by its route.
 * null: the request keeps to the contract.
 */
export function strictRefusal(route: string | null, path: string, query: URLSearchParams): DirectoryResponse | null {
  if (route === null || route === "POST /connect/token") return null; // a 404 or 405 of its own
  const notPublished = (): DirectoryResponse => ({
    status: 404,
    body: errorBodyFor(path, 404, `${route} is not an operation the production service publishes.`),
  });
  if (route.includes(" /service-api/")) {
    if (publishedParams(route) === null) return notPublished();
    const errors: Record<string, string[]> = {};
    for (const name of new Set(query.keys())) {
      if (!takesParam(route, name)) errors[name] = ["not a parameter the production service publishes on this path"];
    }
    return Object.keys(errors).length === 0 ? null : { status: 400, body: problemBody(400, "Bad Request", "invalid query parameters", errors) };
  }
  if (!(route in LEGACY_OPERATIONS) && !(route in LEGACY_READS_UNSHOWN)) return notPublished();
  const named = LEGACY_OPERATIONS[route];
  if (!named) return null;
  const unknown = [...new Set(query.keys())].filter((name) => !named.includes(name));
  if (unknown.length === 0) return null;
  return { status: 400, body: errorBodyFor(path, 400, `Unknown query parameter '${unknown[0]}'. Allowed: ${named.join(", ") || "none"}.`) };
}
