/**
 * The one reader of the environment, for every process (the gateway, the subgraphs, the
 * directory service, `npm start`), used once at start-up. A variable means the same thing
 * wherever it is read: its value is trimmed (GRAPH_PREFIX excepted, taken exactly), and a blank
 * value is the same as an unset one (its default applies). A wrong value throws a ConfigError naming the variable; every process stops
 * on it with status 2.
 */

/** A missing or malformed environment variable; the message names it. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

/** The first 40 characters of a value, as an error message quotes it (a longer one ends with an ellipsis). */
export function excerpt(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

export class Environment {
  constructor(readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The trimmed value; undefined when the variable is unset or blank. */
  text(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  }

  /** The value exactly as given, for a value spaces would change (a name); undefined when unset or blank. */
  exact(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === "" ? undefined : value;
  }

  /** One of `choices`; `caseless` compares in lower case. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T, options: { caseless?: boolean } = {}): T {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const value = options.caseless ? raw.toLowerCase() : raw;
    if ((choices as readonly string[]).includes(value)) return value as T;
    const expected = choices.length === 2 ? `"${choices[0]}" or "${choices[1]}"` : `one of ${choices.join(", ")}`;
    throw new ConfigError(`${name} must be ${expected}, got "${excerpt(raw)}"`, name);
  }

  /** A whole number from `min` to `max`. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${excerpt(raw)}"`, name);
    return value;
  }

  /** `true`/`1` or `false`/`0`, in any case. */
  boolean(name: string, fallback: boolean): boolean {
    const raw = this.text(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    throw new ConfigError(`${name} must be "true" or "false", got "${excerpt(raw)}"`, name);
  }

  /** A port to listen on, 0 (a free port) to 65535. */
  port(name: string, fallback: number): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(port >= 0 && port <= 65535)) throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${excerpt(raw)}"`, name);
    return port;
  }

  /**
   * A secret. In production, a value the docs or manifests show as a stand-in (PLACEHOLDER_SECRETS,
   * or anything starting `change-me`) is refused, and so is one shorter than `minLength` (a secret
   * the facade defines; 0 for a credential the directory service issues). The value is never shown.
   */
  secret(name: string, options: { production: boolean; minLength: number }): string | undefined {
    const value = this.text(name);
    if (value === undefined || !options.production) return value;
    if (isPlaceholderSecret(value)) throw new ConfigError(`${name} is a placeholder of the examples: set a secret of your own in production`, name);
    if (value.length < options.minLength) throw new ConfigError(`${name} must be at least ${options.minLength} characters long in production, got ${value.length}`, name);
    return value;
  }

  /**
   * An absolute http(s) URL. The value is never shown in the error: a URL may carry credentials.
   * `bare`: no query string, fragment or credentials either (a base URL that paths are added to,
   * whose credentials would be sent with every call and could leak into logs).
   */
  httpUrl(name: string, options: { bare?: boolean } = {}): string | undefined {
    const raw = this.text(name);
    if (raw === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be an absolute http(s) URL`, name);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name} must be an absolute http(s) URL, got protocol ${url.protocol}`, name);
    if (options.bare) {
      if (url.search !== "" || url.hash !== "") throw new ConfigError(`${name} must not carry a query string or fragment`, name);
      if (url.username !== "" || url.password !== "") throw new ConfigError(`${name} must not contain credentials`, name);
    }
    return raw;
  }
}

/** The stand-ins of `deploy/kubernetes/secret.yaml` and the docs, refused in production (docs/configuration.md). */
export const PLACEHOLDER_SECRETS = ["change-me", "change-me-subgraph-secret", "change-me-cursor-secret-of-32-characters"] as const;

/** The least length of a secret the facade defines (SUBGRAPH_SECRET, SUBGRAPH_CURSOR_SECRET) in production. */
export const PRODUCTION_SECRET_MIN_LENGTH = 32;

function isPlaceholderSecret(value: string): boolean {
  const lower = value.toLowerCase();
  return (PLACEHOLDER_SECRETS as readonly string[]).includes(lower) || lower.startsWith("change-me") || lower.startsWith("changeme");
}

/*
 * The settings that several processes read: each is read here only, so that one value means one
 * thing in every process.
 */

/** DIRECTORY_AUTH (subgraphs, gateway): `service` (default) or `forward`. */
export function authMode(env: NodeJS.ProcessEnv = process.env): "service" | "forward" {
  return new Environment(env).choice("DIRECTORY_AUTH", ["service", "forward"] as const, "service");
}

/**
 * SUBGRAPH_SECRET (subgraphs, gateway): the shared secret of `x-subgraph-secret`, null for none; in
 * production at least PRODUCTION_SECRET_MIN_LENGTH characters and no placeholder.
 */
export function subgraphSecret(env: NodeJS.ProcessEnv = process.env): string | null {
  return new Environment(env).secret("SUBGRAPH_SECRET", { production: isProduction(env), minLength: PRODUCTION_SECRET_MIN_LENGTH }) ?? null;
}

/** HOST (each process run alone): the interface to listen on, default loopback. */
export function listenHost(env: NodeJS.ProcessEnv = process.env): string {
  return new Environment(env).text("HOST") ?? "127.0.0.1";
}

/**
 * NODE_ENV=production (every process). `development` (the default) and `test` are the other
 * values; anything else is refused, since `prod` would otherwise start in development mode
 * (introspection, the explorer, loopback CORS).
 */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return new Environment(env).choice("NODE_ENV", ["production", "development", "test"] as const, "development") === "production";
}

/** GRAPHQL_DEBUG_ERRORS (every process), default false. */
export function debugErrors(env: NodeJS.ProcessEnv = process.env): boolean {
  return new Environment(env).boolean("GRAPHQL_DEBUG_ERRORS", false);
}

/** SUBGRAPH_LANDING_PAGE: `none` (the default: a subgraph is reached through its gateway) or `sandbox`. */
export function subgraphLandingPage(env: NodeJS.ProcessEnv = process.env): boolean {
  return new Environment(env).choice("SUBGRAPH_LANDING_PAGE", ["none", "sandbox"] as const, "none") === "sandbox";
}

/**
 * GRAPH_PREFIX (subgraphs, gateway): unset for none; otherwise a PascalCase word of at most 20
 * letters and digits (`Dir`) that prefixes every type (`DirEmployee`) and root field
 * (`dirEmployee`) the facade owns, for a company supergraph.
 */
/** `Dir` -> `dir`, `HR` -> `hr`, `AcmeHR` -> `acmeHR`: the prefix of root fields. */
export function rootFieldPrefix(prefix: string): string {
  return prefix === prefix.toUpperCase() ? prefix.toLowerCase() : prefix[0]!.toLowerCase() + prefix.slice(1);
}

export const GRAPH_PREFIX_PATTERN = /^[A-Z][A-Za-z0-9]{0,19}$/;

export function graphPrefix(env: NodeJS.ProcessEnv = process.env): string | null {
  // taken exactly: it becomes part of every type name, so " Dir" is refused rather than guessed
  const value = new Environment(env).exact("GRAPH_PREFIX");
  if (value === undefined) return null;
  if (!GRAPH_PREFIX_PATTERN.test(value)) {
    throw new ConfigError(`GRAPH_PREFIX must be a PascalCase word of at most 20 letters and digits starting with a capital (e.g. Dir), got "${excerpt(value)}"`, "GRAPH_PREFIX");
  }
  return value;
}

/** DIRECTORY_PORT (the directory service; `npm start`): default 4010. */
export function directoryPort(env: NodeJS.ProcessEnv = process.env): number {
  return new Environment(env).port("DIRECTORY_PORT", 4010);
}
