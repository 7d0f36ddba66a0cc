import { expect, it } from "vitest";
import { ConfigError } from "../../platform/config.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";

/** DIRECTORY_EVENTS and its settings (docs/configuration.md): defaults, and what each mode requires. */

const REAL = { DIRECTORY_BASE_URL: "https://directory.example.com", DIRECTORY_CLIENT_ID: "c", DIRECTORY_CLIENT_SECRET: "s", DIRECTORY_API_KEY: "k" };
const SECRET = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;

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
  expect(loadUpstreamConfig({}).events).toMatchObject({ mode: "poll", pollMs: 1000 });
  expect(loadUpstreamConfig(REAL).events!.mode).toBe("off");
  expect(loadUpstreamConfig({ DIRECTORY_AUTH: "forward" }).events!.mode).toBe("off");
});

it("webhook mode needs a public URL and, against a real directory, the secret every replica verifies with; and asks for the scope it registers with", () => {
  expect(refusal({ ...REAL, DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_SECRET: SECRET })).toMatch(/DIRECTORY_EVENTS_PUBLIC_URL is required/);
  expect(refusal({ ...REAL, DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: "https://facade.example.com/directory-events" })).toMatch(/DIRECTORY_EVENTS_SECRET is required/);
  const config = loadUpstreamConfig({ ...REAL, DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: "https://facade.example.com/directory-events", DIRECTORY_EVENTS_SECRET: SECRET });
  expect(config.events).toMatchObject({ mode: "webhook", secret: SECRET });
  expect(config.scopes).toContain("webhook-endpoints.readwrite");
  expect(loadUpstreamConfig(REAL).scopes).not.toContain("webhook-endpoints.readwrite");
});

it("refuses a malformed secret, a bad mode, a poll interval out of range and ingestion in forward mode", () => {
  expect(refusal({ DIRECTORY_EVENTS_SECRET: "not-a-secret" })).toMatch(/DIRECTORY_EVENTS_SECRET must be whsec_/);
  expect(refusal({ DIRECTORY_EVENTS_SECRET: `whsec_${Buffer.alloc(8).toString("base64")}` })).toMatch(/24 to 64 bytes/);
  expect(refusal({ DIRECTORY_EVENTS: "push" })).toMatch(/DIRECTORY_EVENTS must be one of webhook, poll, off/);
  expect(refusal({ DIRECTORY_EVENTS_POLL_MS: "5" })).toMatch(/DIRECTORY_EVENTS_POLL_MS/);
  expect(refusal({ DIRECTORY_AUTH: "forward", DIRECTORY_EVENTS: "poll" })).toMatch(/needs DIRECTORY_AUTH=service/);
  expect(refusal({ DIRECTORY_EVENTS_PUBLIC_URL: "https://user:pw@facade.example.com/x" })).toMatch(/credentials/);
});
