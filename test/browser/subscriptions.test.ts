import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, serveFrontend } from "../helpers/browser.js";
import { startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";

/**
 * In a real browser (`npm run test:browser`): a page of another origin subscribes with a plain
 * `EventSource` to the gateway's `/graphql/stream` (GraphQL over SSE, GET) and receives the change
 * that the page's own `updateLegacyUser` mutation (a `fetch` to the gateway) made at the directory,
 * heard by the people subgraph's polling of the directory's events, with cross-subgraph fields;
 * CORS lets it read the stream and the mutation's answer. Nothing is published on the feed by hand.
 */

const QUERY = `subscription { employeeChanged(ids: ["40"]) { eventId topic previousAttributes employee { givenName applicableJobPosition { department { name } } } } }`;
const MUTATION = `mutation($name: String!) { updateLegacyUser(id: "40", input: { firstName: $name }) { __typename } }`;

let stack: GatewayStack;
let browser: Browser;
let frontend: Awaited<ReturnType<typeof serveFrontend>>;
let frontendOrigin: string;

beforeAll(async () => {
  stack = await startGatewayStack({ env: { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "20" } });
  const page = `<!doctype html><meta charset="utf-8"><title>subscriber</title><script>
    window.events = []; window.failures = 0;
    const gateway = ${JSON.stringify(stack.gateway.url.replace(/\/$/, ""))};
    const url = gateway + "/graphql/stream?query=" + encodeURIComponent(${JSON.stringify(QUERY)});
    window.write = (name) => fetch(gateway + "/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: ${JSON.stringify(MUTATION)}, variables: { name } }) }).then((r) => r.json());
    const source = new EventSource(url);
    source.addEventListener("next", (e) => window.events.push(JSON.parse(e.data)));
    source.onerror = () => { window.failures++; };
  </script>`;
  frontend = await serveFrontend((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page));
  frontendOrigin = frontend.origin;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await frontend?.close();
  await stack?.close();
});

describe("a browser EventSource of another origin", () => {
  it("receives the change its own legacy write made, with cross-subgraph fields", async () => {
    const page = await browser.newPage();
    await page.goto(frontendOrigin + "/");
    // writes from the page until its stream hears one (the subscription is set up asynchronously)
    const written: string[] = [];
    let events: any[] = [];
    for (let i = 0; i < 6 && events.length === 0; i++) {
      const name = `Brigitte${i}`;
      const answer = await page.evaluate((n) => (window as any).write(n), name);
      expect(answer.data?.updateLegacyUser?.__typename, JSON.stringify(answer)).toBe("Employee");
      written.push(name);
      for (let wait = 0; wait < 50 && events.length === 0; wait++) {
        await new Promise((r) => setTimeout(r, 50));
        events = await page.evaluate(() => (window as any).events);
      }
    }
    expect(events.length, "the page heard its write").toBeGreaterThan(0);
    const payload = events[0].data.employeeChanged;
    expect(payload.topic).toBe("employee.updated");
    expect(written).toContain(payload.employee.givenName);
    expect(Object.keys(payload.previousAttributes)).toContain("givenName");
    expect(typeof payload.employee.applicableJobPosition.department.name).toBe("string");
    await page.close();
  });
});
