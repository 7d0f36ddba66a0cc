import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";

/**
 * What the browser tests (`npm run test:browser`) share: Debian's Chromium driven by
 * playwright-core, and a frontend page served from another origin on loopback.
 */

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// without the background-networking flags Chromium keeps trying to reach Google's hosts
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A frontend served on a port of its own, its origin `http://localhost:<port>`: another origin
 * than the gateway's `127.0.0.1`, so that the browser applies CORS.
 */
export async function serveFrontend(handler: RequestListener): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
