/**
 * The deterministic demo company of the in-process directory service.
 *
 * Same options, same company, on every machine: everything is drawn from the seeded generator
 * of `random.ts`, and every date is an offset from `today`, so that statuses (computed from the
 * dates when a response is written) always come out varied whatever day the demo runs.
 *
 * Each employee draws from a stream of their own (`fork`), so that an employee does not depend on
 * how much was drawn for the ones before: up to 1 000 employees, a larger company starts with
 * exactly the people of a smaller one (beyond that, squads are added to the department tree).
 */

import { parseIsoDate, todayUtc } from "./calendar.js";
import type { Company, GenerateOptions, WebhookEndpoint } from "./model.js";
import { DEFAULT_EMPLOYEES, DEFAULT_WEBHOOK_ENDPOINTS, MAX_EMPLOYEES, SALT_REFERENCE, DAY_SECONDS, type Settings } from "./generator/state.js";
import { WebhooksPhase } from "./generator/webhooks.js";

export { DEFAULT_EMPLOYEES, EMAIL_DOMAIN, MAX_EMPLOYEES } from "./generator/state.js";

export function generateCompany(options: GenerateOptions = {}): Company {
  return new CompanyGenerator(validate(options)).run();
}

function validate(options: GenerateOptions): Settings {
  if (options === null || typeof options !== "object") throw new TypeError("generateCompany: options must be an object");
  const employees = options.employees ?? DEFAULT_EMPLOYEES;
  if (!Number.isInteger(employees) || employees < 0 || employees > MAX_EMPLOYEES) {
    throw new RangeError(`generateCompany: employees must be an integer from 0 to ${MAX_EMPLOYEES}, got ${String(employees)}`);
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`generateCompany: seed must be an integer, got ${String(seed)}`);
  const today = options.today ?? todayUtc();
  if (typeof today !== "string") throw new TypeError("generateCompany: today must be a YYYY-MM-DD string");
  try {
    parseIsoDate(today);
  } catch (err) {
    throw new RangeError(`generateCompany: today: ${(err as Error).message}`);
  }
  const webhookEndpoints = options.webhookEndpoints ? validateEndpoints(options.webhookEndpoints) : DEFAULT_WEBHOOK_ENDPOINTS.map((e) => ({ ...e }));
  return { employees, today, seed, webhookEndpoints };
}

function validateEndpoints(endpoints: WebhookEndpoint[]): WebhookEndpoint[] {
  if (!Array.isArray(endpoints)) throw new TypeError("generateCompany: webhookEndpoints must be an array");
  const seen = new Set<string>();
  return endpoints.map((endpoint, index) => {
    const where = `generateCompany: webhookEndpoints[${index}]`;
    if (!endpoint || typeof endpoint.id !== "string" || endpoint.id.length === 0) throw new TypeError(`${where}.id must be a non-empty string`);
    if (seen.has(endpoint.id)) throw new RangeError(`${where}.id ${JSON.stringify(endpoint.id)} is used twice`);
    seen.add(endpoint.id);
    let url: URL;
    try {
      url = new URL(endpoint.url);
    } catch {
      throw new TypeError(`${where}.url must be an absolute URL, got ${JSON.stringify(endpoint.url)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`${where}.url must be http or https`);
    if (typeof endpoint.isActive !== "boolean") throw new TypeError(`${where}.isActive must be a boolean`);
    return { id: endpoint.id, url: endpoint.url, isActive: endpoint.isActive };
  });
}

/** The phases in order (generator/: state, reference data, people, hierarchy, webhooks), run once. */
class CompanyGenerator extends WebhooksPhase {
  run(): Company {
    const rng = this.root.fork(SALT_REFERENCE);
    this.buildLegalEntitiesAndEstablishments(rng);
    this.buildDepartments(rng);
    this.buildReferenceData(rng);

    const n = this.settings.employees;
    this.currentDept = new Int32Array(n).fill(-1);
    this.currentPosition = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) this.buildEmployee(i);
    this.assignManagers();

    const registered = this.timestampOf((this.founded + 400) * DAY_SECONDS);
    const webhookEndpoints = this.settings.webhookEndpoints.map((e) => ({
      name: `Endpoint ${e.id}`,
      topics: ["employee.created", "employee.updated"],
      createdAt: registered,
      ...e,
    }));
    const webhookDeliveries = this.buildDeliveries(webhookEndpoints);
    return {
      today: this.settings.today,
      seed: this.settings.seed,
      legalEntities: this.legalEntities,
      businessEstablishments: this.establishments,
      departments: this.departments.map((d) => d.record),
      employmentTemplates: this.templates,
      occupationCategories: this.categories,
      jobQualifications: this.qualifications,
      taxonomies: this.taxonomies,
      taxonomyLabels: this.labels,
      employees: this.employees,
      employments: this.employments,
      jobPositions: this.positions,
      attributeDefinitions: this.definitions,
      employeeAttributes: this.attributes,
      personalRecords: this.personalRecords,
      probationaryPeriods: this.probationaryPeriods,
      webhookEndpoints,
      ...this.buildEvents(webhookDeliveries),
      webhookDeliveries,
    };
  }
}
