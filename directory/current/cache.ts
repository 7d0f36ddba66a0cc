import type { CurrentContext } from "./resource.js";

/**
 * A value computed once per context and reused by every request: an index, a lookup table. A
 * context lives as long as one generation of the company (index.ts builds a new one after a
 * write), so a cached value never goes stale. Each build is counted in `work.cachesBuilt`, so a
 * test can tell that a page of a kind already served builds nothing more.
 */
export function perContext<A extends unknown[], T>(build: (ctx: CurrentContext, ...args: A) => T) {
  const cache = new WeakMap<CurrentContext, T>();
  const get = (ctx: CurrentContext, ...args: A): T => {
    let value = cache.get(ctx);
    if (value === undefined) {
      value = build(ctx, ...args);
      cache.set(ctx, value);
      ctx.service.work.cachesBuilt++;
    }
    return value;
  };
  /** the value if it was built already */
  const peek = (ctx: CurrentContext): T | undefined => cache.get(ctx);
  return Object.assign(get, { peek });
}
