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

/**
 * GRAPH_PREFIX: empty or unset for none; otherwise a PascalCase word of at most 20 letters and
 * digits (`Dir`) that prefixes every type (`DirEmployee`) and root field (`dirEmployee`) the
 * facade owns, for a company supergraph.
 */
export const GRAPH_PREFIX_PATTERN = /^[A-Z][A-Za-z0-9]{0,19}$/;

export function parseGraphPrefix(variable: string, value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  if (!GRAPH_PREFIX_PATTERN.test(value)) {
    throw new EnvError(`${variable} must be a PascalCase word of at most 20 letters and digits starting with a capital (e.g. Dir), got "${value}"`);
  }
  return value;
}

/** A whole number from `min` to `max`; unset or empty → `fallback`. */
export function parseInteger(variable: string, value: string | undefined, fallback: number, min: number, max: number): number {
  const raw = value?.trim();
  if (raw === undefined || raw === "") return fallback;
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  if (!/^\d+$/.test(raw)) throw new EnvError(`${variable} must be an integer from ${min} to ${max}, got "${shown}"`);
  const parsed = Number(raw);
  if (parsed < min || parsed > max) throw new EnvError(`${variable} must be an integer from ${min} to ${max}, got ${shown}`);
  return parsed;
}

/** `true`/`1` or `false`/`0`; unset or empty → `fallback`. */
export function parseBoolean(variable: string, value: string | undefined, fallback: boolean): boolean {
  const raw = value?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new EnvError(`${variable} must be "true" or "false", got "${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}"`);
}

/** SUBGRAPH_LANDING_PAGE: `none` (the default: a subgraph is reached through its gateway) or `sandbox`. */
export function parseSubgraphLandingPage(value: string | undefined): boolean {
  const text = (value ?? "").trim();
  if (text === "" || text === "none") return false;
  if (text === "sandbox") return true;
  throw new EnvError(`SUBGRAPH_LANDING_PAGE must be "none" or "sandbox", got "${value}"`);
}
