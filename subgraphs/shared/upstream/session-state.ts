import type { CallCounter } from "./types.js";
import type { Limiter } from "./util.js";

/** Internal per-session state the Upstream's collaborators need for every call. */
export interface SessionState {
  calls: CallCounter;
  identity: string;
  authorization: string | null;
  limiter: Limiter;
  /** `performance.now()` at which the request's deadline passes */
  deadline: number;
  deadlineMs: number;
  /** the facade's own work (the event poll, the webhook registration): the request budget's background share */
  background?: boolean;
  /** how many of the session's read-merge-writes hold their record now (`serialise`): its reads then skip what is held */
  writing?: number;
  /** the session's budget or deadline already refused an attempt (counted once per request) */
  refusalCounted?: boolean;
  /** forward mode: whether the caller's token is one the directory just refused (asked once a session) */
  refused?: Promise<boolean>;
  /** forward mode: the current API accepted the caller's token (a 2xx or 304 for it) */
  accepted?: boolean;
  /** forward mode: the check of the caller made before its first legacy call */
  callerCheck?: Promise<unknown>;
}
