import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import type { ChangeFeed, DirectoryChange } from "../../subgraphs/shared/events/index.js";

/** What a subscription received: its results in order, the error that ended it, whether it completed. */
export interface Received {
  results: any[];
  error: unknown;
  complete: boolean;
}

type Sink = { next: (result: any) => void; error: (err: unknown) => void; complete: () => void };

/** Collects what one subscription receives (`start` subscribes with the sink). */
export function collect(start: (sink: Sink) => unknown): Received {
  const state: Received = { results: [], error: null, complete: false };
  start({ next: (r) => state.results.push(r), error: (e) => (state.error = e), complete: () => (state.complete = true) });
  return state;
}

/** A graphql-sse client of the gateway's stream (`<gateway>/graphql/stream`); `disposers` closes it after the test. */
export function gatewaySse(gatewayUrl: string, disposers: Array<() => unknown>, headers: Record<string, string> = {}) {
  const client = createSseClient({ url: `${gatewayUrl.replace(/\/$/, "")}/graphql/stream`, headers, retryAttempts: 0 });
  disposers.push(() => client.dispose());
  return client;
}

/** A graphql-ws client of the gateway (`ws://<gateway>/graphql`); `disposers` closes it after the test. */
export function gatewayWs(gatewayUrl: string, disposers: Array<() => unknown>, connectionParams: Record<string, unknown> = {}) {
  const client = createWsClient({ url: `${gatewayUrl.replace(/^http/, "ws").replace(/\/$/, "")}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  disposers.push(() => client.dispose());
  return client;
}

/** Waits until `check` holds, at most `ms` (subscriptions are set up and delivered asynchronously). */
export async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Publishes a change made by `make` every 30 ms until `heard` holds, at most `tries` times: a subscription is set up asynchronously. */
export async function publishUntil(feed: ChangeFeed, make: () => DirectoryChange, heard: () => boolean, tries = 200): Promise<void> {
  for (let i = 0; i < tries && !heard(); i++) {
    await feed.publish(make());
    await new Promise((r) => setTimeout(r, 30));
  }
}
