import { publishedParams, takesParam } from "../../contract/current-params.js";
import { LEGACY_OPERATIONS, LEGACY_READS_UNSHOWN } from "../../contract/legacy-params.js";
import type { DirectoryOptions, RecordedRequest } from "../../directory/server.js";

/** how the facade's upstream client names itself (subgraphs/shared/upstream/transport.ts): what the tests send the directory themselves is not the facade's */
const FACADE_AGENT = "directory-graph-upstream";

/** Why a request recorded by the twin breaks production's contract; null when it keeps to it. */
export function contractBreach(r: RecordedRequest): string | null {
  if (r.route === null) return "no route of the service has the path";
  if (r.route === "POST /connect/token") return null;
  const names = [...new Set(r.query.map(([k]) => k))];
  if (r.route.includes(" /service-api/")) {
    if (publishedParams(r.route) === null) return "not a published operation";
    const bad = names.filter((n) => !takesParam(r.route!, n));
    if (bad.length > 0) return `unpublished parameters ${bad.join(", ")}`;
    const isList = r.method === "GET" && !r.route.endsWith("}");
    const include = r.query.filter(([k]) => k === "include").flatMap(([, v]) => v.split(","));
    if (isList && !include.includes("links")) return "a list read without include=links";
    return null;
  }
  if (!(r.route in LEGACY_OPERATIONS) && !(r.route in LEGACY_READS_UNSHOWN)) return "not a legacy operation of the interface";
  const named = LEGACY_OPERATIONS[r.route];
  const bad = named ? names.filter((n) => !named.includes(n)) : [];
  return bad.length > 0 ? `parameters the interface does not name: ${bad.join(", ")}` : null;
}

/**
 * Requests the facade is known to send that production does not describe, each still to be
 * replaced by what production offers, listed so that every other one fails the stacks of the suite
 * (the operations of operations/ admit none of them: test/contract/facade-requests.test.ts).
 */
export const KNOWN_GAPS: ReadonlyArray<(r: RecordedRequest) => boolean> = [
  // production publishes GET /portraits/{id} only: the metadata of many portraits should be single reads
  (r) => r.route === "GET /service-api/portraits",
  // production's list of deliveries takes no filter: an endpoint's deliveries should be found by reading the list
  (r) => r.route === "GET /service-api/webhook-deliveries" && r.query.some(([k]) => k === "webhookEndpoint.id"),
  // a legacy user's picture address, which the twin routes nowhere (test/gateway/file-links.test.ts reads one to show the 404)
  (r) => r.route === null && /^\/api\/v3\/files\/[^/]+$/.test(r.path),
];

/** A request as it reads in a breach's report. */
export const requestLine = (r: RecordedRequest) => `${r.method} ${r.path}?${new URLSearchParams(r.query)}`;

/**
 * The contract kept by every stack of the suite: the directory options of a stack with a recorder
 * of each request the facade sends that breaks production's contract (`contractBreach`), beside
 * the test's own `onRequest`, and the check its close runs first: a stack whose facade sent one
 * fails its file, naming the request and why.
 */
export function keepingContract(options: DirectoryOptions | undefined): { directory: DirectoryOptions; check(): void } {
  const breaches: string[] = [];
  const own = options?.onRequest;
  return {
    directory: {
      ...options,
      onRequest: (r) => {
        own?.(r);
        if (r.userAgent !== FACADE_AGENT) return;
        const why = contractBreach(r);
        if (why !== null && !KNOWN_GAPS.some((known) => known(r)) && breaches.length < 20) breaches.push(`${requestLine(r)}: ${why}`);
      },
    },
    check() {
      if (breaches.length > 0) throw new Error(`the facade sent requests production's contract does not describe:\n${breaches.join("\n")}`);
    },
  };
}
