import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { RequestSpec } from "./apis.js";
import type { UpstreamConfig } from "./config.js";
import { UpstreamError } from "./errors.js";
import { refusedUpstream } from "./observe.js";
import { ClientCredentials } from "./token.js";
import type { SessionState } from "./session-state.js";
import { RefusedTokens } from "../../../platform/refused-tokens.js";
import { canonicalAuthorization } from "../../../platform/credentials.js";
import type { SharedState } from "../../../platform/shared-state.js";

/** the longest caller Authorization forwarded (docs/security.md#unverified-tokens) */
const MAX_FORWARDED_AUTHORIZATION = 4096;

export const API_VERSION = "2024-11-01";

/** Sends one logical request on a session's behalf (the Upstream's deduplicated send). */
type Send = <T>(state: SessionState, spec: RequestSpec) => Promise<T | null>;

/**
 * Who the upstream calls are made as: the service-mode token (token.ts) or, in forward mode, the
 * caller's own token, with the tokens the directory refused (every replica, a while) and accepted
 * (this process, a moment), and the check of a caller before the facade's legacy key is used for it.
 */
export class UpstreamCredentials {
  /** forward mode: the tokens the directory refused with 401, refused without calling again */
  readonly refusedTokens: RefusedTokens;
  /** forward mode: hashes of the tokens the current API accepted a moment ago (this process) */
  private readonly acceptedTokens: LRUCache<string, true>;
  private readonly client: ClientCredentials;
  private readonly forward: boolean;

  constructor(
    private readonly config: UpstreamConfig,
    shared: SharedState,
    private readonly tokenPath: string,
    private readonly send: Send,
    /** the caller check's request: one page of one employee */
    private readonly probe: () => RequestSpec,
  ) {
    this.forward = config.auth === "forward";
    this.refusedTokens = new RefusedTokens(this.forward ? (config.refusedTokenTtlSeconds ?? 30) : 0, shared);
    this.acceptedTokens = new LRUCache<string, true>({ max: 10_000, ttl: Math.max(1, config.refusedTokenTtlSeconds ?? 30) * 1000 });
    this.client = new ClientCredentials(config, tokenPath);
  }

  /** The session's forwarded authorization (null: none, or service mode) and the identity its cache keys start with. */
  identityOf(authorizationHeader: string | undefined): { authorization: string | null; identity: string } {
    const authorization = this.forward ? (canonicalAuthorization(authorizationHeader) ?? null) : null;
    const identity = this.forward
      ? authorization === null
        ? "forward:anonymous"
        : `forward:${createHash("sha256").update(authorization).digest("hex")}`
      : `service:${this.config.clientId ?? ""}`;
    return { authorization, identity };
  }

  /** The short public name of an identity, the same on every replica. */
  static callerOf(identity: string): string {
    return createHash("sha256").update(`directory-graph caller ${identity}`).digest("hex").slice(0, 16);
  }

  /**
   * Sets `headers`' authorization (and the current API's version) for a request of the session;
   * returns the service token used, if any.
   */
  async authorize(state: SessionState, spec: RequestSpec, headers: Record<string, string>): Promise<string | null> {
    if (spec.api === "current") {
      headers["api-version"] = API_VERSION;
      if (this.forward) {
        await this.checkCaller(state, spec);
        headers.authorization = state.authorization!;
        return null;
      }
      const token = await this.token(state);
      headers.authorization = `Bearer ${token}`;
      return token;
    }
    if (spec.api === "legacy") {
      // forward mode: the facade's own key only for a caller checked first (checkCaller)
      if (this.forward) await this.checkCaller(state, spec);
      headers.authorization = `${this.config.legacyAuthScheme ?? "service"} application=${this.config.apiKey ?? ""}`;
    }
    return null;
  }

  /** The service token was refused (401): it may have expired early or been revoked; a fresh one in `headers`. */
  async refresh(state: SessionState, token: string, headers: Record<string, string>): Promise<string> {
    this.client.invalidate(token);
    const fresh = await this.token(state);
    headers.authorization = `Bearer ${fresh}`;
    return fresh;
  }

  /** What an answer of the current API says of the caller's token: accepted (2xx, 304) or refused (401). */
  async answered(state: SessionState, spec: RequestSpec, status: number): Promise<void> {
    if (spec.api !== "current" || state.authorization === null) return;
    if (status === 304 || (status >= 200 && status < 300)) this.accepted(state);
    else if (status === 401 && this.forward) {
      // forward mode: the directory refused the caller's token; every replica refuses it for a while
      state.refused = Promise.resolve(true);
      await this.refusedTokens.remember(state.authorization);
    }
  }

  /**
   * Forward mode: whether the directory knows the caller's token (docs/security.md#unverified-tokens),
   * at the cost of one page of one employee, or of nothing when the token was accepted or refused a
   * moment ago. `unknown`: the directory did not say (unreachable, a fault, service mode).
   */
  async verify(state: SessionState): Promise<"accepted" | "refused" | "unknown"> {
    if (!this.forward) return "unknown";
    if (state.authorization === null) return "refused";
    if (this.acceptedTokens.has(state.identity)) return "accepted";
    try {
      await this.send(state, this.probe());
      return "accepted";
    } catch (err) {
      if (!(err instanceof UpstreamError)) return "unknown";
      // 403: the token is the directory's, only not allowed this read
      return err.status === 401 ? "refused" : err.status === 403 ? "accepted" : "unknown";
    }
  }

  /**
   * Forward mode, before a call on the caller's behalf: a caller without credentials, or whose
   * token the directory refused with 401 a moment ago (on any replica), is refused without a call;
   * before a legacy call, a token the current API has not accepted yet is checked first.
   */
  private async checkCaller(state: SessionState, spec: RequestSpec): Promise<void> {
    const refusal = (status: number | null, reason: "unauthenticated" | "http") =>
      new UpstreamError({ method: spec.method, path: spec.path, status, reason, ...(status === 401 ? { summary: "Unauthorized (refused a moment ago)" } : {}) });
    if (state.authorization === null) throw refusal(null, "unauthenticated");
    // the directory refuses request headers over 8 KB (431) and issues no token near that size: a
    // credential this long is refused as unknown without spending a request of the tenant's budget
    if (state.authorization.length > MAX_FORWARDED_AUTHORIZATION) throw refusal(401, "http");
    state.refused ??= this.refusedTokens.has(state.authorization);
    if (await state.refused) {
      refusedUpstream("refusedToken");
      throw refusal(401, "http");
    }
    // the facade's legacy key is used for a caller the current API accepted (in this request, or
    // a moment ago): otherwise one page of one employee with the caller's token first
    if (spec.api !== "legacy" || state.accepted) return;
    if (this.acceptedTokens.has(state.identity)) {
      state.accepted = true;
      return;
    }
    state.callerCheck ??= this.send(state, this.probe());
    await state.callerCheck;
  }

  /** forward mode: the current API accepted the session's token */
  private accepted(state: SessionState): void {
    if (state.accepted) return;
    state.accepted = true;
    this.acceptedTokens.set(state.identity, true);
  }

  /** The service-mode token (token.ts), requested through the Upstream's retries, breaker and budget. */
  token(state: SessionState): Promise<string> {
    return this.client.token((form) => this.send<Record<string, unknown>>(state, { api: "token", method: "POST", path: this.tokenPath, url: this.config.tokenUrl, form }) as Promise<Record<string, unknown>>);
  }
}
