/**
 * The production service's limits (docs/directory.md#limits): the twin keeps them by default and
 * the facade's request budget defaults to them (a part of the contract both sides rely on): at
 * most `requests` requests in any sliding window of `windowSeconds` for the tenant (the current and
 * legacy APIs together; the token endpoint, on its own host in production, and the admin routes
 * apart), a request running longer than `requestTimeoutMs` aborted with 408, request headers
 * longer than `maxHeaderBytes` refused with 431. (A body over platform/http.ts's limit is a 413.)
 * A test that is not about limits may lift one on purpose (`requests: 0`, …); 0 lifts each.
 */
export interface DirectoryLimits {
  requests: number;
  windowSeconds: number;
  requestTimeoutMs: number;
  maxHeaderBytes: number;
}

export const PRODUCTION_LIMITS: Readonly<DirectoryLimits> = Object.freeze({ requests: 50, windowSeconds: 60, requestTimeoutMs: 5000, maxHeaderBytes: 8192 });
