import { ConfigError, Environment, excerpt } from "../platform/config.js";
import { parseIsoDate } from "./data/calendar.js";
import { MAX_EMPLOYEES } from "./data/generate.js";
import type { DirectoryOptions, RunningDirectory } from "./server.js";

/**
 * The directory service's settings from the environment (the one reader, platform/config.ts),
 * checked at start-up; a wrong value throws a ConfigError naming the variable: DIRECTORY_EMPLOYEES (size of the demo company), DIRECTORY_SEED (another
 * company of the same shape), DIRECTORY_TODAY (the date statuses are computed against).
 * DIRECTORY_PORT is read by the starters (`npm run directory`, `npm start`).
 */
export function directoryOptionsFromEnv(env: NodeJS.ProcessEnv): DirectoryOptions {
  const e = new Environment(env);
  const options: DirectoryOptions = {};
  const employees = e.text("DIRECTORY_EMPLOYEES");
  if (employees !== undefined) options.employees = e.integer("DIRECTORY_EMPLOYEES", 0, 1, MAX_EMPLOYEES);
  const seed = e.text("DIRECTORY_SEED");
  if (seed !== undefined) {
    const n = /^-?\d{1,15}$/.test(seed) ? Number(seed) : NaN;
    if (!Number.isSafeInteger(n)) throw new ConfigError(`DIRECTORY_SEED must be a whole number of at most 15 digits, got "${excerpt(seed)}"`, "DIRECTORY_SEED");
    options.seed = n;
  }
  const today = e.text("DIRECTORY_TODAY");
  if (today !== undefined) {
    try {
      parseIsoDate(today);
    } catch {
      throw new ConfigError(`DIRECTORY_TODAY must be a calendar date as YYYY-MM-DD, got "${excerpt(today)}"`, "DIRECTORY_TODAY");
    }
    options.today = today;
  }
  return options;
}

export function directoryBanner(directory: RunningDirectory): string {
  const url = directory.url;
  return [
    `directory service: ${url} (${directory.company.employees.length} employees, seed ${directory.company.seed}, today ${directory.company.today})`,
    `  current API:  ${url}/service-api   header Api-Version: 2024-11-01`,
    `  token:        POST ${url}/connect/token   grant_type=client_credentials`,
    `                demo-client / demo-secret    every scope, every establishment`,
    `                demo-limited / demo-secret   employees, job-positions, employments, departments (.readonly), establishment 1 only`,
    `  legacy API:   ${url}/api/v3, /directory/api/4.0, /organization/structure/api   header Authorization: service application=demo-api-key`,
    `  admin:        GET ${url}/_admin/stats, POST ${url}/_admin/stats/reset, GET|PUT|DELETE ${url}/_admin/faults (loopback only)`,
  ].join("\n");
}
