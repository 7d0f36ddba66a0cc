import { randomBytes } from "node:crypto";
import type { Id } from "../data/model.js";

/** The callers of the current API and the access tokens issued to them (auth.ts issues and checks them). */

/** The authenticated client of one request. */
export interface Caller {
  clientId: string;
  /** granted scopes, e.g. `employees.readonly` */
  scopes: ReadonlySet<string>;
  /** business establishments whose employees the caller may see; null = all */
  visibleEstablishmentIds: ReadonlySet<Id> | null;
}

interface IssuedToken {
  caller: Caller;
  expiresAt: number;
}

/** Opaque random tokens that really expire. */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    readonly lifetimeSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  issue(caller: Caller): string {
    if (this.tokens.size >= 10_000) this.sweep();
    const token = randomBytes(32).toString("base64url");
    this.tokens.set(token, { caller, expiresAt: this.now() + this.lifetimeSeconds * 1000 });
    return token;
  }

  /** The token's caller, `"expired"`, or null for a token never issued. */
  resolve(token: string): Caller | "expired" | null {
    const issued = this.tokens.get(token);
    if (!issued) return null;
    if (issued.expiresAt <= this.now()) {
      this.tokens.delete(token);
      return "expired";
    }
    return issued.caller;
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, issued] of this.tokens) if (issued.expiresAt <= now) this.tokens.delete(token);
  }
}
