import { describe, expect, it } from "vitest";
import { composeFromCode } from "../helpers/composition.js";

/** The people SDL, as built from the code, composes as a Federation 2 subgraph alone and with the others. */

describe("composition", () => {
  it("the people subgraph composes alone without errors or hints", async () => {
    expect(await composeFromCode("people")).toEqual({ errors: [], hints: [] });
  });

  it("people composes with the organisation subgraph without errors or hints", async () => {
    expect(await composeFromCode("people", ["organisation"])).toEqual({ errors: [], hints: [] });
  });

  it("people composes with the organisation and legacy-time subgraphs without errors or hints", async () => {
    expect(await composeFromCode("people", ["organisation", "legacy-time"])).toEqual({ errors: [], hints: [] });
  });
});
