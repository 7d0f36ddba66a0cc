import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * graphql-codegen's client preset over the graph's client schema (schema/api.graphql, written by
 * `npm run compose`) and the operations frontends send (operations/): typed documents, result and
 * variable types, and the persisted-documents manifest the gateway's trusted documents read
 * (docs/frontends.md#codegen). `npm run codegen` writes them to `.generated/gql/`; the test suite
 * writes them to a temp dir and type-checks them with `tsc --strict` (test/frontends/codegen.test.ts).
 *
 * The graph's custom scalars as their JSON values carry them, so that none comes out `unknown`
 * (`strictScalars` refuses a scalar missing here):
 */
export const SCALARS = {
  /** `YYYY-MM-DD`, a calendar day (RFC 3339 full-date) */
  Date: "string",
  /** RFC 3339 date-time with offset, UTC (`2026-06-15T08:30:00.000Z`) */
  DateTime: "string",
  /** RFC 3339 date-time without offset, the wall-clock time of the legacy API (`2026-06-15T08:30:00`) */
  LocalDateTime: "string",
  /** an absolute URL */
  URL: "string",
  /** any JSON value */
  JSON: "string | number | boolean | null | { [key: string]: unknown } | unknown[]",
} as const;

export function codegenConfig(outDir = ".generated/gql/"): CodegenConfig {
  return {
    schema: "schema/api.graphql",
    documents: ["operations/*.graphql"],
    ignoreNoDocuments: false,
    generates: {
      [outDir.endsWith("/") ? outDir : `${outDir}/`]: {
        preset: "client",
        config: { scalars: SCALARS, strictScalars: true, useTypeImports: true, enumsAsTypes: true },
        presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: "sha256" } },
      },
    },
  };
}

export default codegenConfig();
