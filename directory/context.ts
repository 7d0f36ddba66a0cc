import type { DirectoryClient } from "./current/auth.js";
import type { Company } from "./data/model.js";
import type { OutboxOptions } from "./current/outbox.js";

/** Shared by the route modules of one running service (server.ts builds it). */
export interface DirectoryContext {
  company: Company;
  options: {
    /** access-token lifetime in seconds */
    tokenLifetimeSeconds: number;
    /** OAuth clients beside the demo ones */
    clients?: Record<string, DirectoryClient>;
    /** the webhook deliveries' retry schedule and suspension */
    webhooks?: OutboxOptions;
  };
}
