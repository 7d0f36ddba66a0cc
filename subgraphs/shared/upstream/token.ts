import type { UpstreamConfig } from "./config.js";
import { UpstreamError } from "./errors.js";

/**
 * The facade's own access token (service mode): OAuth 2.0 client credentials, requested once and
 * shared by every session of the process, renewed `tokenRefreshMarginMs` (at most 10% of its
 * lifetime) before it expires. However many requests wait for a token, one token request is made.
 */

interface CachedToken {
  token: string;
  refreshAt: number;
}

/** Sends the token request's form (through the client's retries, breaker and budget) and answers its JSON body. */
export type TokenRequest = (form: Record<string, string>) => Promise<Record<string, unknown> | null>;

export class ClientCredentials {
  private cached: CachedToken | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly config: Pick<UpstreamConfig, "clientId" | "clientSecret" | "scopes" | "tokenRefreshMarginMs">,
    /** the token endpoint's path, for errors */
    private readonly path: string,
  ) {}

  /** The cached token, or the one being requested. */
  token(request: TokenRequest): Promise<string> {
    const cached = this.cached;
    if (cached !== null && Date.now() < cached.refreshAt) return Promise.resolve(cached.token);
    if (this.pending === null) {
      this.pending = this.request(request).finally(() => {
        this.pending = null;
      });
    }
    return this.pending;
  }

  /** Forgets `token` (refused with a 401) unless a newer one has already replaced it. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = null;
  }

  private async request(request: TokenRequest): Promise<string> {
    const form: Record<string, string> = {
      grant_type: "client_credentials",
      client_id: this.config.clientId ?? "",
      client_secret: this.config.clientSecret ?? "",
    };
    if (this.config.scopes.length > 0) form.scope = this.config.scopes.join(" ");
    const requestedAt = Date.now();
    const body = await request(form);
    const token = body?.access_token;
    const lifetime = body?.expires_in;
    if (typeof token !== "string" || token === "" || /[\r\n]/.test(token)) {
      throw new UpstreamError({ method: "POST", path: this.path, status: 200, reason: "http", summary: "OK without an access_token" });
    }
    const lifetimeMs = (typeof lifetime === "number" && lifetime > 0 ? lifetime : 300) * 1000;
    const margin = Math.min(this.config.tokenRefreshMarginMs ?? 60_000, lifetimeMs * 0.1);
    this.cached = { token, refreshAt: requestedAt + lifetimeMs - margin };
    return token;
  }
}
