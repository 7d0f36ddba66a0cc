import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../directory/server.js";
import { keepingContract } from "../helpers/contract.js";

/**
 * The check every stack of the suite runs at its close (test/helpers/stack.ts, gateway-stack.ts):
 * a request of the facade's client that production does not describe fails it; the test's own
 * requests to the twin, the known gaps and the test's own `onRequest` are not its business.
 */

const FACADE = "directory-graph-upstream";
const request = (method: string, path: string, query: [string, string][], route: string | null, userAgent: string | null = FACADE): RecordedRequest => ({ method, path, query, route, status: 200, userAgent });

describe("the contract kept by every stack", () => {
  it("fails on an unpublished parameter, a list without links and a path no route has, naming each", () => {
    const seen: RecordedRequest[] = [];
    const contract = keepingContract({ onRequest: (r) => seen.push(r) });
    contract.directory.onRequest!(request("GET", "/service-api/employees", [["limit", "10"], ["include", "links"], ["after", "3"]], "GET /service-api/employees"));
    contract.directory.onRequest!(request("GET", "/service-api/departments", [["limit", "10"]], "GET /service-api/departments"));
    contract.directory.onRequest!(request("GET", "/service-api/nowhere", [], null));
    expect(seen).toHaveLength(3);
    expect(() => contract.check()).toThrow(
      [
        "GET /service-api/employees?limit=10&include=links&after=3: unpublished parameters after",
        "GET /service-api/departments?limit=10: a list read without include=links",
        "GET /service-api/nowhere?: no route of the service has the path",
      ].join("\n"),
    );
  });

  it("passes on documented requests, on what the tests send the twin themselves and on the known gaps", () => {
    const contract = keepingContract(undefined);
    contract.directory.onRequest!(request("GET", "/service-api/employees", [["limit", "1"], ["include", "links"]], "GET /service-api/employees"));
    contract.directory.onRequest!(request("GET", "/api/v3/users", [["id", "1,2"], ["formerEmployees", "true"]], "GET /api/v3/users"));
    contract.directory.onRequest!(request("GET", "/service-api/departments", [["sort", "name"]], "GET /service-api/departments", "undici"));
    contract.directory.onRequest!(request("GET", "/service-api/portraits", [["include", "links"]], "GET /service-api/portraits"));
    expect(() => contract.check()).not.toThrow();
  });
});
