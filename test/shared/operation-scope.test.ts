import { describe, expect, it } from "vitest";
import { OperationScopes } from "../../subgraphs/shared/graphql/operation-scope.js";
import { LoaderRegistry } from "../../subgraphs/shared/upstream/loaders.js";

/** The loaders one gateway operation's requests share (subgraphs/shared/graphql/operation-scope.ts). */

const ID = "0b7c6a52-3f6e-4d0c-9d8e-2f1a7c5b9e10";

describe("operation scopes", () => {
  it("the requests of one operation and one caller share their loaders", () => {
    const scopes = new OperationScopes();
    const a = scopes.acquire(ID, "Bearer x", new LoaderRegistry(), 1000);
    const b = scopes.acquire(ID, "Bearer x", new LoaderRegistry(), 1000);
    expect(b.loaders).toBe(a.loaders);
    expect(a.loaders.get("k", () => ({ n: 1 }))).toBe(b.loaders.get("k", () => ({ n: 2 })));
  });

  it("another caller, another operation, or no id gets loaders of its own", () => {
    const scopes = new OperationScopes();
    const own = new LoaderRegistry();
    const a = scopes.acquire(ID, "Bearer x", new LoaderRegistry(), 1000);
    expect(scopes.acquire(ID, "Bearer y", new LoaderRegistry(), 1000).loaders).not.toBe(a.loaders);
    expect(scopes.acquire(ID, undefined, new LoaderRegistry(), 1000).loaders).not.toBe(a.loaders);
    expect(scopes.acquire(ID.replace("0b", "1b"), "Bearer x", new LoaderRegistry(), 1000).loaders).not.toBe(a.loaders);
    expect(scopes.acquire(undefined, "Bearer x", own, 1000).loaders).toBe(own);
  });

  it("an id that is not a UUID shares nothing and keeps nothing", () => {
    const scopes = new OperationScopes();
    for (const bad of ["", "x", `${ID}\n`, ID.toUpperCase(), "a".repeat(5000)]) {
      const own = new LoaderRegistry();
      expect(scopes.acquire(bad, "Bearer x", own, 1000).loaders).toBe(own);
    }
    expect(scopes.size).toBe(0);
  });

  it("a scope ends once its last request ended and its time ran out; a request before that joins it", async () => {
    const scopes = new OperationScopes();
    const first = scopes.acquire(ID, "", new LoaderRegistry(), 30);
    first.release();
    first.release(); // twice is once
    const joined = scopes.acquire(ID, "", new LoaderRegistry(), 30);
    expect(joined.loaders).toBe(first.loaders);
    joined.release();
    await new Promise((r) => setTimeout(r, 80));
    expect(scopes.size).toBe(0);
    expect(scopes.acquire(ID, "", new LoaderRegistry(), 30).loaders).not.toBe(first.loaders);
  });

  it("beyond `max` scopes a request gets loaders of its own", () => {
    const scopes = new OperationScopes(2);
    scopes.acquire("00000000-0000-4000-8000-000000000001", "", new LoaderRegistry(), 1000);
    scopes.acquire("00000000-0000-4000-8000-000000000002", "", new LoaderRegistry(), 1000);
    const own = new LoaderRegistry();
    expect(scopes.acquire("00000000-0000-4000-8000-000000000003", "", own, 1000).loaders).toBe(own);
    expect(scopes.size).toBe(2);
  });
});
