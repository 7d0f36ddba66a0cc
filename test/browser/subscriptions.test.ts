import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";

/**
 * In a real browser (`npm run test:browser`): a page of another origin subscribes with a plain
 * `EventSource` to the gateway's `/graphql/stream` (GraphQL over SSE, GET) and receives a change
 * with cross-subgraph fields; CORS lets it read the stream.
 */

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const QUERY = `subscription { employeeChanged(ids: ["40"]) { eventId topic employee { givenName applicableJobPosition { department { name } } } } }`;

let stack: GatewayStack;
let browser: Browser;
let frontend: Server;
let frontendOrigin: string;

beforeAll(async () => {
  stack = await startGatewayStack();
  const page = `<!doctype html><meta charset="utf-8"><title>subscriber</title><script>
    window.events = []; window.failures = 0;
    const url = ${JSON.stringify(stack.gateway.url.replace(/\/$/, ""))} + "/graphql/stream?query=" + encodeURIComponent(${JSON.stringify(QUERY)});
    const source = new EventSource(url);
    source.addEventListener("next", (e) => window.events.push(JSON.parse(e.data)));
    source.onerror = () => { window.failures++; };
  </script>`;
  frontend = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page));
  await new Promise<void>((resolve) => frontend.listen(0, "127.0.0.1", resolve));
  frontendOrigin = `http://localhost:${(frontend.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => frontend?.close(resolve));
  await stack?.close();
});

describe("a browser EventSource of another origin", () => {
  it("receives a change with cross-subgraph fields", async () => {
    const page = await browser.newPage();
    await page.goto(frontendOrigin + "/");
    let n = 0;
    const change = (): DirectoryChange => ({ id: `browser-${++n}`, topic: "employee.updated", occurredAt: "2026-06-15T10:00:00.000Z", resource: { type: "employee", id: "40" }, establishmentIds: ["1"], previousAttributes: null });
    let events: any[] = [];
    for (let i = 0; i < 200 && events.length === 0; i++) {
      await stack.feed.publish(change());
      await new Promise((r) => setTimeout(r, 50));
      events = await page.evaluate(() => (window as any).events);
    }
    expect(events.length).toBeGreaterThan(0);
    const payload = events[0].data.employeeChanged;
    expect(payload.topic).toBe("employee.updated");
    expect(typeof payload.employee.givenName).toBe("string");
    expect(typeof payload.employee.applicableJobPosition.department.name).toBe("string");
    await page.close();
  });
});
