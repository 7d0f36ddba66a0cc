import { mkdirSync, readFileSync } from "node:fs";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../../gateway/gateway.js";
import { loadOperations, TOUR_VARIABLES } from "../../gateway/operations.js";
import { launchChromium, serveFrontend } from "../helpers/browser.js";
import { startExtraGateway, startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";

/**
 * In a real browser (Debian's Chromium, driven by playwright-core; `npm run test:browser`): a
 * frontend page served from another origin on loopback runs every operation of `operations/`
 * against the gateway with POST and GET, and the gateway's explorer renders and runs an operation
 * with every request beyond loopback aborted. Screenshots go to test/browser/.screenshots/.
 */

const SCREENSHOTS = new URL("./.screenshots/", import.meta.url).pathname;
const PAGE = readFileSync(new URL("./frontend.html", import.meta.url), "utf8");

let stack: GatewayStack;
let refusing: RunningGateway;
let browser: Browser;
let frontend: Awaited<ReturnType<typeof serveFrontend>>;
let frontendOrigin: string;
/** the gateway the frontend page calls, changed per test */
let target = "";
const operations = loadOperations();

function isLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === "data:" || protocol === "blob:" || protocol === "about:") return true;
  return ["127.0.0.1", "localhost", "[::1]"].includes(hostname);
}

/** A browser context in which any request that leaves loopback is aborted and recorded. */
async function offlineContext(): Promise<{ context: BrowserContext; aborted: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const aborted: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (isLoopback(url)) return route.continue();
    aborted.push(url);
    return route.abort("internetdisconnected");
  });
  return { context, aborted };
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = await startGatewayStack();
  refusing = await startExtraGateway(stack, { GATEWAY_CORS_ORIGINS: "https://app.example.com" });
  // the frontend: a static page on another port of loopback, so another origin than the gateway's
  frontend = await serveFrontend((req, res) => {
    if (req.url === "/config.json") {
      const body = JSON.stringify({
        gateway: target,
        operations: operations.map((o) => ({ name: o.name, kind: o.kind, source: o.source, variables: TOUR_VARIABLES[o.name] })),
      });
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    } else if (req.url === "/blank") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>blank</title>");
    } else if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  frontendOrigin = frontend.origin;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await frontend?.close();
  await refusing?.close();
  await stack?.close();
});

interface PageResult {
  name: string;
  method: string;
  status: number;
  /** the `x-request-id` the page read from the answer, and the one it sent */
  requestId?: string | null;
  sentRequestId?: string;
  body?: { data?: unknown; errors?: unknown[] };
  error?: string;
}

async function runFrontend(gatewayUrl: string, screenshot: string): Promise<{ results: PageResult[]; aborted: string[] }> {
  target = gatewayUrl;
  const { context, aborted } = await offlineContext();
  try {
    const page = await context.newPage();
    await page.goto(`${frontendOrigin}/`);
    await page.waitForFunction(() => document.getElementById("state")?.textContent === "done", undefined, { timeout: 60_000 });
    await page.screenshot({ path: `${SCREENSHOTS}${screenshot}`, fullPage: true });
    return { results: await page.evaluate(() => (window as unknown as { results: PageResult[] }).results), aborted };
  } finally {
    await context.close();
  }
}

describe("a browser frontend on another origin", () => {
  it("runs every operation of operations/ against the gateway, queries with POST and GET, with traceparent, tracestate and x-request-id, with the same answers as a server-side client", async () => {
    // the answers of a server-side client, before the page's UpdateTimeEntry changes an entry
    const direct = new Map<string, unknown>();
    for (const o of operations.filter((o) => o.kind === "query")) direct.set(o.name, (await stack.query(o.source, TOUR_VARIABLES[o.name])).data);
    const { results } = await runFrontend(stack.gateway.url, "frontend-allowed.png");
    const expected = operations.flatMap((o) => (o.kind === "query" ? [[o.name, "POST"], [o.name, "GET"]] : [[o.name, "POST"]]));
    expect(results.map((r) => [r.name, r.method])).toEqual(expected);
    for (const result of results) {
      expect(result.error, `${result.name} ${result.method}`).toBeUndefined();
      expect(result.status, `${result.name} ${result.method}`).toBe(200);
      expect(result.body?.errors, `${result.name} ${result.method}: ${JSON.stringify(result.body?.errors)}`).toBeUndefined();
      // the page sent its request id and could read it back (Access-Control-Expose-Headers)
      expect(result.requestId).toBe(result.sentRequestId);
      if (result.name === "UpdateTimeEntry") {
        expect(result.body?.data).toMatchObject({ updateTimeEntry: { __typename: "TimeEntry", id: "100095", duration: "02:30:00" } });
      } else {
        expect(result.body?.data).toEqual(direct.get(result.name));
      }
    }
  });

  it("is refused by a gateway that does not list its origin: the browser reports a failed fetch for every call", async () => {
    const { results } = await runFrontend(refusing.url, "frontend-refused.png");
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.status).toBe(0);
      expect(result.error).toMatch(/Failed to fetch/);
    }
  });
});

describe("a portrait's file link in a page", () => {
  it("shows as an <img src> from another origin, without credentials; an altered link shows nothing", async () => {
    const res = await stack.query<{ employee: { portrait: { downloadUrl: string } } }>(`{ employee(id: "7") { portrait { downloadUrl } } }`);
    const link = res.data!.employee.portrait.downloadUrl;
    expect(link.startsWith(`${stack.gateway.url}files/`)).toBe(true);
    const at = link.indexOf("/files/") + 27;
    const altered = `${link.slice(0, at)}${link[at] === "A" ? "B" : "A"}${link.slice(at + 1)}`;
    const { context, aborted } = await offlineContext();
    try {
      const page = await context.newPage();
      // a page of the frontend's origin, not the gateway's: an <img> sends no Authorization header
      await page.goto(`${frontendOrigin}/blank`);
      const show = (src: string) =>
        page.evaluate(async (source) => {
          const img = new Image();
          img.src = source;
          try {
            await img.decode();
            return `${img.naturalWidth}x${img.naturalHeight}`;
          } catch {
            return "not shown";
          }
        }, src);
      expect(await show(link)).toBe("16x16");
      expect(await show(altered)).toBe("not shown");
      expect(aborted).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the gateway's explorer without the internet", () => {
  it("renders GraphiQL with a tab per operation and runs the first one", async () => {
    const { context, aborted } = await offlineContext();
    try {
      const page = await context.newPage();
      const failures: string[] = [];
      page.on("pageerror", (err) => failures.push(err.message));
      page.on("console", (message) => {
        if (message.type() === "error") failures.push(message.text());
      });
      await page.goto(`${stack.gateway.url}explorer`);
      await page.locator(".graphiql-container").waitFor({ timeout: 30_000 });
      await expect.poll(() => page.locator(".graphiql-tab").count(), { timeout: 10_000 }).toBe(operations.length);
      await page.locator(".graphiql-execute-button").click();
      await expect.poll(() => page.locator(".result-window").innerText(), { timeout: 30_000 }).toContain("totalCount");
      const result = await page.locator(".result-window").innerText();
      expect(result).toContain('"endCursor"');
      expect(result).not.toContain('"errors"');
      await page.screenshot({ path: `${SCREENSHOTS}explorer.png` });
      expect(failures).toEqual([]);
      // GraphiQL and React came from the gateway: nothing beyond loopback was even asked for
      expect(aborted).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("the landing page offline shows Sandbox's fallback with the way to the explorer", async () => {
    const { context, aborted } = await offlineContext();
    try {
      const page = await context.newPage();
      await page.goto(stack.gateway.url);
      const link = page.locator('a[href="/explorer"]');
      await link.waitFor({ state: "visible", timeout: 10_000 });
      // the Sandbox script is on Apollo's CDN: blocked here
      expect(aborted.some((url) => url.includes("apollographql.com"))).toBe(true);
      await page.waitForTimeout(1500); // the fallback fades in after a second
      await page.screenshot({ path: `${SCREENSHOTS}landing-offline.png` });
      await link.click();
      await page.locator(".graphiql-container").waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).pathname).toBe("/explorer");
    } finally {
      await context.close();
    }
  });
});
