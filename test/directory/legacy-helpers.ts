import { startDirectory, type DirectoryOptions, type RunningDirectory } from "../../directory/server.js";
import { useFixture } from "../helpers/fixture.js";

/** What the legacy tests share: one directory per test file, and requests with the demo API key. */

import { TODAY } from "../helpers/stack.js";

export { TODAY };
export const AUTH = { authorization: "service application=demo-api-key" };

export interface Reply<T = any> {
  status: number;
  body: T;
}

export interface LegacyClient {
  directory: RunningDirectory;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Reply<T>>;
  put<T = any>(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  close(): Promise<void>;
}

export async function startLegacy(options: DirectoryOptions = {}): Promise<LegacyClient> {
  const directory = await startDirectory({ limits: { requests: 0 }, employees: 300, today: TODAY, ...options });
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(directory.url + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    directory,
    get: (path, headers = AUTH) => call("GET", path, undefined, headers),
    put: (path, body, headers = AUTH) => call("PUT", path, body, headers),
    close: () => directory.close(),
  };
}

/** A legacy client for the tests of the file: its directory started before them, closed after (see useFixture). */
export function useLegacy(options: DirectoryOptions = {}): LegacyClient {
  return useFixture("the legacy client", () => startLegacy(options));
}

/** Day arithmetic on `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
