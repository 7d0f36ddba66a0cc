import { randomBytes } from "node:crypto";
import type { Company } from "../data/model.js";
import type { Router } from "../http/router.js";
import type { DirectoryContext } from "../context.js";
import { clientRegistry, registerTokenEndpoint } from "./auth.js";
import { TokenStore } from "./tokens.js";
import { buildLookup, companyGeneration, computeDerived } from "./derived.js";
import { ConditionalRouter, registerResource, type ContextSource } from "./engine.js";
import type { CurrentContext, CurrentService, ListWork } from "./resource.js";
import { registerPortraitFiles, registerWebhookDeliveries, resources } from "./resources/index.js";
import { OPENAPI_PATH, openApiDocument } from "./openapi.js";
import { Outbox } from "./outbox.js";
import { referenceChanges, type ReferenceChange } from "./reference-changes.js";
import { serializeEvent, serializeWebhookEndpoint } from "./resources/webhooks.js";

/** The current API under `/service-api` and the token endpoint `POST /connect/token`; its outbox (events, webhook deliveries). */
export function registerCurrentApi(router: Router, directory: DirectoryContext): { work: ListWork; outbox: Outbox; changeReference: ReferenceChange } {
  const service: CurrentService = {
    tokens: new TokenStore(directory.options.tokenLifetimeSeconds),
    resources: new Map(),
    signingKey: randomBytes(32),
    work: { recordsExamined: 0, cachesBuilt: 0 },
  };
  registerTokenEndpoint(router, service.tokens, clientRegistry(directory.options.clients));

  // A new context (and with it fresh caches) whenever the company was written to.
  let generation = companyGeneration(directory.company);
  let ctx = buildContext(directory.company, service);
  const current: ContextSource = () => {
    const now = companyGeneration(directory.company);
    if (now !== generation) {
      generation = now;
      ctx = buildContext(directory.company, service);
    }
    return ctx;
  };

  const api = new ConditionalRouter(router);
  for (const def of resources) registerResource(api, def, current);
  registerWebhookDeliveries(api, current);
  const outbox = new Outbox(current, serializeEvent, directory.options.webhooks);
  outbox.register(api, serializeWebhookEndpoint);
  registerPortraitFiles(api, current);
  // public, as the production service's own document: it describes routes, not records
  api.get(OPENAPI_PATH, (req) => ({ status: 200, body: openApiDocument(resources, req.origin) }));
  return { work: service.work, outbox, changeReference: referenceChanges(current, serializeEvent) };
}

export function buildContext(company: Company, service: CurrentService): CurrentContext {
  service.work.cachesBuilt++;
  const lookup = buildLookup(company);
  return { company, lookup, derived: computeDerived(company, lookup), service };
}
