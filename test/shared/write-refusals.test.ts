import { describe, expect, it } from "vitest";
import { codedError, ErrorCode } from "../../platform/error-codes.js";
import { ConflictError, refusalAsData } from "../../subgraphs/shared/graphql/writes.js";
import { UpstreamError } from "../../subgraphs/shared/upstream/index.js";

/**
 * `ConflictError.retryable` (docs/graph.md#mutations): true for the facade's own conflict, a record
 * held by another write past the wait (send the same mutation again); false for the directory's
 * 409 or 412, a precondition the client must read the record again for.
 */
describe("ConflictError.retryable", () => {
  const target = { idArgument: "id" };

  it("is true for a record lease held past the wait", () => {
    const refusal = refusalAsData(codedError(ErrorCode.CONFLICT, "Another write to this record is still in progress; nothing was written: retry.", { retryable: true }), target);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect(refusal).toMatchObject({ retryable: true, fields: [] });
  });

  it.each([409, 412])("is false for the directory's %i", (status) => {
    const refusal = refusalAsData(new UpstreamError({ method: "PATCH", path: "/service-api/employees/1", status, reason: "http" }), target);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect(refusal).toMatchObject({ retryable: false });
  });
});
