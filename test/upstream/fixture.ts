import { expect } from "vitest";
import { startDirectory, type DirectoryOptions, type RunningDirectory } from "../../directory/server.js";
import { Upstream, UpstreamError, loadUpstreamConfig, type UpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { useFixture } from "../helpers/fixture.js";

/**
 * The in-process directory service and an upstream client against it, over loopback HTTP with
 * an ephemeral port. Small timeouts and backoff keep the fault tests fast.
 */

export interface Fixture {
  directory: RunningDirectory;
  upstream: Upstream;
  /** another client against the same directory, with other settings */
  client(overrides?: Partial<UpstreamConfig>): Upstream;
  stats(): { total: number; byRoute: Record<string, number> };
  reset(): void;
  close(): Promise<void>;
}

export function configFor(url: string, overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return {
    ...loadUpstreamConfig({
      DIRECTORY_BASE_URL: url,
      DIRECTORY_REQUEST_BUDGET: "off",
      // reference data read afresh, as the stacks' COLD_REFERENCES: the tests count upstream reads
      DIRECTORY_REFERENCE_FRESH_S: "0",
      DIRECTORY_LEGACY_TIME_FRESH_S: "0",
      DIRECTORY_CLIENT_ID: "demo-client",
      DIRECTORY_CLIENT_SECRET: "demo-secret",
      DIRECTORY_API_KEY: "demo-api-key",
    }),
    timeoutMs: 3000,
    retryBaseDelayMs: 5,
    ...overrides,
  };
}

export async function startFixture(options: DirectoryOptions = {}, overrides: Partial<UpstreamConfig> = {}): Promise<Fixture> {
  const directory = await startDirectory({ limits: { requests: 0 }, ...options });
  const clients: Upstream[] = [];
  const client = (more: Partial<UpstreamConfig> = {}) => {
    const upstream = new Upstream(configFor(directory.url, { ...overrides, ...more }));
    clients.push(upstream);
    return upstream;
  };
  const upstream = client();
  return {
    directory,
    upstream,
    client,
    stats: () => directory.stats.snapshot(),
    reset: () => directory.stats.reset(),
    close: async () => {
      directory.faults.clear();
      await Promise.all(clients.map((c) => c.close()));
      await directory.close();
    },
  };
}

/** A fixture for the tests of the file (or `describe` block): started before them, closed after (see useFixture). */
export function useUpstreamFixture(options: DirectoryOptions = {}, overrides: Partial<UpstreamConfig> = {}): Fixture {
  return useFixture("the upstream fixture", () => startFixture(options, overrides));
}

/** The UpstreamError a promise rejects with (fails the test if it resolves or rejects otherwise). */
export async function upstreamError(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(UpstreamError);
    return err as UpstreamError;
  }
  throw new Error("expected the call to fail");
}
