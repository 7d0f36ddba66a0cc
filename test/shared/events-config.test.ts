import { expect, it } from "vitest";
import { ConfigError } from "../../platform/config.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";

/** DIRECTORY_EVENTS and its settings (docs/configuration.md): defaults, and what each mode requires. */

const REAL = { DIRECTORY_BASE_URL: "https://directory.example.com", DIRECTORY_CLIENT_ID: "c", DIRECTORY_CLIENT_SECRET: "s", DIRECTORY_API_KEY: "k" };
const SECRET = "s".repeat(40);

function refusal(env: Record<string, string>): string | undefined {
  try {
    loadUpstreamConfig(env);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
}

it("polls the embedded directory by default, and ingests nothing from a real one unless told", () => {
  // the poll's default pause takes a tenth of the request budget at most: 5 reads in 60 s at 50/60
  expect(loadUpstreamConfig({}).events).toMatchObject({ mode: "poll", pollMs: 12_000 });
  expect(loadUpstreamConfig({ DIRECTORY_REQUEST_BUDGET: "300/60" }).events).toMatchObject({ pollMs: 2000 });
  expect(loadUpstreamConfig({ DIRECTORY_REQUEST_BUDGET: "off" }).events).toMatchObject({ pollMs: 1000 });
  expect(loadUpstreamConfig(REAL).events!.mode).toBe("off");
  expect(loadUpstreamConfig({ DIRECTORY_AUTH: "forward" }).events!.mode).toBe("off");
});

it("webhook mode needs a public URL; the secret is the registration's unless a deployment gives its own; it asks for the scope it registers with", () => {
  expect(refusal({ ...REAL, DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_SECRET: SECRET })).toMatch(/DIRECTORY_EVENTS_PUBLIC_URL is required/);
  expect(loadUpstreamConfig({ ...REAL, DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: "https://facade.example.com/directory-events" }).events).toMatchObject({ mode: "webhook", secret: null });
  const config = loadUpstreamConfig({ ...REAL, DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: "https://facade.example.com/directory-events", DIRECTORY_EVENTS_SECRET: SECRET });
  expect(config.events).toMatchObject({ mode: "webhook", secret: SECRET });
  expect(config.scopes).toContain("webhook-endpoints.readwrite");
  expect(loadUpstreamConfig(REAL).scopes).not.toContain("webhook-endpoints.readwrite");
});

it("refuses a bad mode, a poll interval out of range and ingestion in forward mode", () => {
  expect(refusal({ DIRECTORY_EVENTS: "push" })).toMatch(/DIRECTORY_EVENTS must be one of webhook, poll, off/);
  expect(refusal({ DIRECTORY_EVENTS_POLL_MS: "5" })).toMatch(/DIRECTORY_EVENTS_POLL_MS/);
  expect(refusal({ DIRECTORY_AUTH: "forward", DIRECTORY_EVENTS: "poll" })).toMatch(/needs DIRECTORY_AUTH=service/);
  expect(refusal({ DIRECTORY_EVENTS_PUBLIC_URL: "https://user:pw@facade.example.com/x" })).toMatch(/credentials/);
});
