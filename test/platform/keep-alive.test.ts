import { createServer, get, type Agent, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { IDLE_SOCKET_MS, keepAliveAgents } from "../../platform/keep-alive.js";

/**
 * The process's keep-alive agents retire an idle socket before the server closes it: a second
 * before the `Keep-Alive: timeout` the server announces, and IDLE_SOCKET_MS at most.
 * Node's agent without a timeout of its own keeps an idle socket for ever, whatever the hint.
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server that announces its keep-alive timeout (`Keep-Alive: timeout=N`, as Node's does). */
async function serve(keepAliveTimeoutMs: number): Promise<number> {
  const server = createServer((_req, res) => res.end("ok"));
  server.keepAliveTimeout = keepAliveTimeoutMs;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** The idle timeout of the socket the agent keeps after one request. */
async function idleTimeout(agent: Agent, port: number): Promise<number | undefined> {
  await new Promise<void>((resolve, reject) => get({ port, host: "127.0.0.1", agent }, (res) => res.resume().on("end", resolve)).on("error", reject));
  await new Promise((resolve) => setImmediate(resolve));
  const free = Object.values(agent.freeSockets)[0]?.[0] as Socket | undefined;
  agent.destroy();
  return free?.timeout;
}

describe("keepAliveAgents", () => {
  it("retires an idle socket a second before the server's announced keep-alive timeout", async () => {
    const port = await serve(5000);
    expect(await idleTimeout(keepAliveAgents().http, port)).toBe(4000);
  });

  it("keeps it IDLE_SOCKET_MS at most where the server would keep it longer", async () => {
    const port = await serve(120_000);
    expect(await idleTimeout(keepAliveAgents().http, port)).toBe(IDLE_SOCKET_MS);
  });

  it("where Node's agent alone would keep it for ever (timeout 0), whatever the hint", async () => {
    const { Agent: NodeAgent } = await import("node:http");
    const port = await serve(5000);
    expect(await idleTimeout(new NodeAgent({ keepAlive: true }), port)).toBe(0);
  });
});
