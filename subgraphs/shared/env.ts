/** Helpers for reading the environment once at start-up, with errors that name the variable. */

export class EnvError extends Error {}

export function parsePort(variable: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new EnvError(`${variable} must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

/** SUBGRAPH_LANDING_PAGE: `none` (the default: a subgraph is reached through its gateway) or `sandbox`. */
export function parseSubgraphLandingPage(value: string | undefined): boolean {
  const text = (value ?? "").trim();
  if (text === "" || text === "none") return false;
  if (text === "sandbox") return true;
  throw new EnvError(`SUBGRAPH_LANDING_PAGE must be "none" or "sandbox", got "${value}"`);
}
