import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ErrorCode, codedError, errorBody, errorCodeOf } from "../../platform/error-codes.js";
import { typescriptSources } from "../helpers/sources.js";

/** The one set of error codes: documented, and the only way code writes one. */

describe("error codes", () => {
  it("every code of the set is documented in the README or docs/", () => {
    const pages = ["README.md", ...readdirSync("docs").filter((name) => name.endsWith(".md")).map((name) => join("docs", name))];
    const docs = pages.map((page) => readFileSync(page, "utf8")).join("\n");
    const undocumented = Object.values(ErrorCode).filter((code) => !docs.includes(`\`${code}\``));
    expect(undocumented).toEqual([]);
  });

  it("no code of the subgraphs or the gateway writes a code as a string literal", () => {
    const literal = new RegExp(`(code: |code = |[=!]== |\\?\\? |\\? |return )"(${Object.values(ErrorCode).join("|")})"`);
    const offenders = [...typescriptSources("subgraphs"), ...typescriptSources("gateway"), ...typescriptSources("platform")]
      .filter((file) => !file.endsWith("error-codes.ts"))
      .filter((file) => literal.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("no code outside the set: a code given as a literal (a last argument, an extension) is one of ErrorCode", () => {
    const known = new Set<string>(Object.values(ErrorCode));
    const literals = /(?:, |code: )"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"\)*[,;}]/g;
    const outside = [...typescriptSources("subgraphs"), ...typescriptSources("gateway"), ...typescriptSources("platform")]
      .filter((file) => !file.endsWith("error-codes.ts"))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(literals)].map((m) => m[1]!).filter((code) => /(_ERROR|_FAILED|_EXCEEDED|_SLOW|_UNAVAILABLE|_FOUND|_DOWN|_LIMITED|_INPUT|_REQUEST|_LIST|_UNKNOWN)$/.test(code) && !known.has(code)).map((code) => `${file}: ${code}`));
    expect(outside).toEqual([]);
  });

  it("an error body with a code is built by errorBody alone", () => {
    const byHand = /errors: \[\{ message[^\]]*extensions/;
    const offenders = [...typescriptSources("subgraphs"), ...typescriptSources("gateway"), ...typescriptSources("platform")]
      .filter((file) => !file.endsWith("error-codes.ts"))
      .filter((file) => byHand.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("codedError, errorBody and errorCodeOf carry the code", () => {
    const error = codedError(ErrorCode.NOT_FOUND, "Employee 1 does not exist.", { field: "id" });
    expect(error.extensions).toEqual({ code: "NOT_FOUND", field: "id" });
    expect(errorCodeOf(error)).toBe("NOT_FOUND");
    expect(errorCodeOf(codedError("NOPE" as ErrorCode, "x"))).toBeUndefined();
    expect(errorCodeOf(new Error("x"))).toBeUndefined();
    expect(errorBody(ErrorCode.FORBIDDEN, "no")).toEqual({ errors: [{ message: "no", extensions: { code: "FORBIDDEN" } }] });
    expect(errorBody(ErrorCode.RATE_LIMITED, "slow down", { retryAfter: 3 })).toEqual({ errors: [{ message: "slow down", extensions: { retryAfter: 3, code: "RATE_LIMITED" } }] });
  });
});
