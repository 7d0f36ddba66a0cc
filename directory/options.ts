import type { DirectoryOptions, RunningDirectory } from "./server.js";

/** The directory service's settings from the environment: DIRECTORY_EMPLOYEES, DIRECTORY_SEED, DIRECTORY_TODAY. */
export function directoryOptionsFromEnv(env: NodeJS.ProcessEnv): DirectoryOptions {
  const options: DirectoryOptions = {};
  if (env.DIRECTORY_EMPLOYEES) {
    const n = Number(env.DIRECTORY_EMPLOYEES);
    if (!Number.isInteger(n) || n < 1 || n > 1_000_000) {
      throw new Error(`DIRECTORY_EMPLOYEES must be a whole number from 1 to 1000000, got "${env.DIRECTORY_EMPLOYEES}"`);
    }
    options.employees = n;
  }
  if (env.DIRECTORY_SEED) {
    const seed = Number(env.DIRECTORY_SEED);
    if (!Number.isInteger(seed)) throw new Error(`DIRECTORY_SEED must be an integer, got "${env.DIRECTORY_SEED}"`);
    options.seed = seed;
  }
  if (env.DIRECTORY_TODAY) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(env.DIRECTORY_TODAY) || Number.isNaN(Date.parse(env.DIRECTORY_TODAY))) {
      throw new Error(`DIRECTORY_TODAY must be a date as YYYY-MM-DD, got "${env.DIRECTORY_TODAY}"`);
    }
    options.today = env.DIRECTORY_TODAY;
  }
  return options;
}

export function directoryBanner(directory: RunningDirectory): string {
  return [
    `directory service: ${directory.url} (${directory.company.employees.length} employees, today ${directory.company.today})`,
    `  current API:  ${directory.url}/service-api   (header Api-Version: 2024-11-01)`,
    `  token:        POST ${directory.url}/connect/token   client demo-client / demo-secret (all scopes), demo-limited / demo-secret (establishment 1 only)`,
    `  legacy API:   ${directory.url}/api/v3 ...   header Authorization: service application=demo-api-key`,
    `  admin:        GET ${directory.url}/_admin/stats, PUT|DELETE ${directory.url}/_admin/faults`,
  ].join("\n");
}
