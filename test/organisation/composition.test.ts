import { describe, expect, it } from "vitest";
import { composeFromCode } from "../helpers/composition.js";

/** The organisation SDL, as built from the code, composes alone and with the other subgraphs, without errors or hints. */

describe("composition", () => {
  it("the organisation subgraph composes alone without errors or hints", async () => {
    expect(await composeFromCode("organisation")).toEqual({ errors: [], hints: [] });
  });

  it("organisation composes with the people and legacy-time subgraphs without errors or hints", async () => {
    expect(await composeFromCode("organisation", ["people", "legacy-time"])).toEqual({ errors: [], hints: [] });
  });
});
