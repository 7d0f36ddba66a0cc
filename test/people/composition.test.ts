import { describe, expect, it } from "vitest";
import { composeFromCode } from "../helpers/composition.js";

/** The people SDL, as built from the code, composes as a Federation 2 subgraph with the others (its `@external` work-contract fields need legacy-time, their owner). */

describe("composition", () => {
  it("people composes with legacy-time, the owner of the work contract it provides, without errors or hints", async () => {
    expect(await composeFromCode("people", ["legacy-time"])).toEqual({ errors: [], hints: [] });
  });

  it("people composes with the organisation and legacy-time subgraphs without errors or hints", async () => {
    expect(await composeFromCode("people", ["organisation", "legacy-time"])).toEqual({ errors: [], hints: [] });
  });
});
