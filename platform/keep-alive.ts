import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";

/**
 * The longest a kept-alive socket waits idle for its next request, where the server announces
 * no `Keep-Alive: timeout`. Node's agent keeps an idle socket for ever unless it has a `timeout`
 * of its own, and the server's hint only shortens that timeout (to the hint less a second): with
 * none set, a request could go out on a socket the server was closing at that moment (ECONNRESET;
 * the benchmark met it when the gateway's sockets sat idle for the subgraphs' 5 s).
 */
export const IDLE_SOCKET_MS = 30_000;

/** Keep-alive agents for a process's outgoing requests, idle sockets retired before the server closes them. */
export function keepAliveAgents(options: { maxSockets?: number } = {}): { http: HttpAgent; https: HttpsAgent } {
  const settings = { keepAlive: true, timeout: IDLE_SOCKET_MS, ...options };
  return { http: new HttpAgent(settings), https: new HttpsAgent(settings) };
}

/**
 * A request that failed because the kept-alive socket it was written to had been closed by the
 * server (it never read it): sending it again on a new socket is safe for a read. Node's own
 * advice for keep-alive clients (`request.reusedSocket`).
 */
export function wroteToClosedSocket(req: { reusedSocket: boolean }, err: unknown): boolean {
  return req.reusedSocket && (err as NodeJS.ErrnoException).code === "ECONNRESET";
}
