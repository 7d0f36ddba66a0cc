import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { operationNamed, loadOperations, pickDemoData, variablesOf } from "../helpers/operations.js";
import { postGraphQL } from "../helpers/stack.js";
import type { RunningGateway } from "../../gateway/gateway.js";

/**
 * A subgraph that closes a kept-alive connection just as the gateway writes its next request on
 * it (what a server's keep-alive timeout does at the wrong moment): the gateway sends a read again
 * on a new connection, and does not send a write again, whose fate it cannot know
 * (platform/keep-alive.ts).
 */

const stack = useGatewayStack();

/** A TCP relay to `port` that resets a connection when a second request arrives on it, counting the resets. */
async function resettingRelay(port: number): Promise<{ url: string; resets: () => number; close: () => Promise<void> }> {
  let resets = 0;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    sockets.add(client);
    const subgraph = connect(port, "127.0.0.1");
    sockets.add(subgraph);
    let answered = false;
    subgraph.on("data", (chunk) => {
      answered = true;
      client.write(chunk);
    });
    client.on("data", (chunk) => {
      if (answered) {
        resets++;
        client.resetAndDestroy();
        subgraph.destroy();
        return;
      }
      subgraph.write(chunk);
    });
    client.on("error", () => subgraph.destroy());
    subgraph.on("error", () => client.destroy());
    client.on("close", () => subgraph.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/graphql`,
    resets: () => resets,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

let gateway: RunningGateway;
let relays: Array<Awaited<ReturnType<typeof resettingRelay>>>;

beforeAll(async () => {
  relays = [await resettingRelay(stack.subgraphs.people!.port), await resettingRelay(stack.subgraphs["legacy-time"]!.port)];
  gateway = await startExtraGateway(stack, { PEOPLE_URL: relays[0]!.url, LEGACY_TIME_URL: relays[1]!.url });
});
afterAll(async () => {
  await gateway?.close();
  for (const relay of relays ?? []) await relay.close();
});

describe("a kept-alive connection the subgraph closes as a request is written to it", () => {
  it("costs a read nothing: it goes again on a new connection and is answered", async () => {
    const employee = pickDemoData(stack.directory.company).profile.id;
    // email: people's alone (legacy-time answers employee(id:) with the names too)
    const query = `query($id: ID!) { employee(id: $id) { id givenName email } }`;
    const first = await postGraphQL(gateway.url, query, { id: employee });
    expect(first.errors).toBeUndefined();
    const second = await postGraphQL(gateway.url, query, { id: employee });
    expect(relays[0]!.resets()).toBe(1);
    expect(second.errors).toBeUndefined();
    expect(second.data).toEqual(first.data);
  });

  it("is not sent again for a write: SUBGRAPH_UNAVAILABLE, and the directory saw no PUT", async () => {
    const demo = pickDemoData(stack.directory.company);
    const operations = loadOperations();
    const timesheet = operationNamed(operations, "Timesheet");
    const read = await postGraphQL(gateway.url, timesheet.source, variablesOf(demo, timesheet));
    expect(read.errors).toBeUndefined();
    stack.resetStats();
    const update = operationNamed(operations, "UpdateTimeEntry");
    const write = await postGraphQL(gateway.url, update.source, variablesOf(demo, update));
    expect(relays[1]!.resets()).toBe(1);
    expect(write.errors?.[0]?.extensions).toMatchObject({ code: "SUBGRAPH_UNAVAILABLE", subgraph: "legacy-time", retryable: true });
    expect(Object.keys(stack.stats().byRoute).filter((route) => route.startsWith("PUT"))).toEqual([]);
  });
});
