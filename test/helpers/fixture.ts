import { afterAll, beforeAll } from "vitest";

/**
 * The one way a test file (or a `describe` block) starts what its tests share and stops it:
 *
 *     const stack = useStack({ subgraphs: ["people"] });
 *     it("…", async () => { await stack.gql(…) });
 *
 * `useFixture(start)` registers a `beforeAll` that runs `start()` and an `afterAll` that closes
 * what it started, and answers a stand-in for it: inside the tests and the hooks that follow, the
 * stand-in reads as the started value itself (properties, methods, `Object.keys`); read outside
 * them, before `beforeAll` has run, it throws, naming what was not started yet. Hooks registered
 * after the call run after the start (`beforeAll`) and before the close (`afterAll`: vitest runs
 * after-hooks in reverse), so a file may derive more from the started value in its own `beforeAll`.
 *
 * vitest's own fixtures (`test.extend`) hand the value to each test's callback only; the helpers
 * of these files read it at module level, hence this stand-in.
 */
export function useFixture<T extends { close(): unknown }>(what: string, start: () => Promise<T>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  });
  afterAll(async () => {
    await value?.close();
  });
  const current = (): T => {
    if (value === undefined) throw new Error(`${what} is used before the beforeAll that starts it has run`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const property = Reflect.get(target, key, target);
      // methods run on the value itself (private fields, `this`)
      return typeof property === "function" ? property.bind(target) : property;
    },
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(current()),
    set: (_, key, property) => Reflect.set(current(), key, property),
  });
}

/**
 * For what the tests themselves start (another gateway, another server): answers `closeAfter`,
 * which hands back what it is given and closes it after the tests of the file (or `describe`
 * block), before what `useFixture` calls registered earlier started.
 */
export function useCloseAfter(): <T extends { close(): unknown }>(thing: T) => T {
  const started: Array<{ close(): unknown }> = [];
  afterAll(async () => {
    await Promise.all(started.splice(0).map((thing) => thing.close()));
  });
  return (thing) => {
    started.push(thing);
    return thing;
  };
}
