import { LoaderRegistry } from "../upstream/loaders.js";
import type { LoaderScope } from "../upstream/types.js";

/**
 * The loaders one gateway operation shares across its subgraph fetches (docs/performance.md#query-plans).
 *
 * A query plan asks a subgraph several times for one operation (an entity fetch after another
 * subgraph answered, the gateway's early prefetch). Each request used to start with empty loaders;
 * keyed by the gateway's operation id (`x-operation-id`, a random UUID) and the caller's
 * credentials, the requests of one operation now share them: what one read, or started reading,
 * answers the others. Per caller as before: another `authorization` is another scope, and an id
 * nobody can guess is needed to join one. A scope ends when the last request of the operation has
 * ended and the operation's time (its deadline) has run out, whichever is later; at most `max`
 * scopes are kept, beyond which a request gets loaders of its own, as without the header.
 * Mutations never share (the gateway sends the header with query fetches only). Fires on every
 * query fetch that carries the header; SUBGRAPH_MECHANISMS_OFF=operation-scope turns it off, for
 * measuring it (docs/performance.md#which-mechanism-fires-when).
 */
export class OperationScopes {
  private readonly scopes = new Map<string, { loaders: LoaderRegistry; requests: number; timer?: NodeJS.Timeout }>();

  constructor(private readonly max = 1000) {}

  /** The loaders of the operation `id` for `authorization`, and the call that releases them once the request ends. */
  acquire(id: string | undefined, authorization: string | undefined, own: LoaderScope, keepMs: number): { loaders: LoaderScope; release: () => void } {
    if (id === undefined || !OPERATION_ID.test(id)) return { loaders: own, release: () => undefined };
    const key = `${id}\n${authorization ?? ""}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      if (this.scopes.size >= this.max) return { loaders: own, release: () => undefined };
      scope = { loaders: new LoaderRegistry(), requests: 0 };
      this.scopes.set(key, scope);
    }
    const held = scope;
    if (held.timer) clearTimeout(held.timer);
    held.requests++;
    let released = false;
    return {
      loaders: held.loaders,
      release: () => {
        if (released) return;
        released = true;
        if (--held.requests > 0) return;
        held.timer = setTimeout(() => {
          if (held.requests === 0 && this.scopes.get(key) === held) this.scopes.delete(key);
        }, Math.max(0, keepMs));
        held.timer.unref();
      },
    };
  }

  get size(): number {
    return this.scopes.size;
  }
}

/** A UUID as `crypto.randomUUID()` writes it. */
const OPERATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
