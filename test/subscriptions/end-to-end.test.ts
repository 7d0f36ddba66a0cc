import { afterEach, describe, expect, it } from "vitest";
import { startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { useFixture } from "../helpers/fixture.js";
import { freePort } from "../helpers/replicas.js";
import { collect, gatewaySse, gatewayWs } from "../helpers/subscriptions.js";

/**
 * Issue 37's "done when", end to end, nothing published on the feed by the test: a client of the
 * gateway over graphql-ws and one over graphql-sse hear the change that the `updateLegacyUser`
 * mutation, sent through the same gateway, makes at the directory (legacy PUT → the directory's
 * event → the people subgraph's ingestion, by poll or by webhook → the change feed → the people
 * subgraph's stream → the gateway's node read), with the cross-subgraph fields resolved and the new
 * value in them. With DIRECTORY_EVENTS=off nothing arrives and each case times out.
 */

const SELECTION = `topic previousAttributes employee { givenName manager { givenName } applicableJobPosition { department { name } } }`;
const SUBSCRIPTION = `subscription Changed($ids: [ID!]) { employeeChanged(ids: $ids) { ${SELECTION} } }`;
const READ = `query($id: ID!) { employee(id: $id) { givenName manager { givenName } applicableJobPosition { department { name } } } }`;

function clients(stack: GatewayStack, disposers: Array<() => unknown>, ids: string[]) {
  const ws = gatewayWs(stack.gateway.url, disposers);
  const sse = gatewaySse(stack.gateway.url, disposers);
  return {
    overWs: collect((sink) => ws.subscribe({ query: SUBSCRIPTION, variables: { ids } }, sink)),
    overSse: collect((sink) => sse.subscribe({ query: SUBSCRIPTION, variables: { ids } }, sink)),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes the legacy user's first name through the gateway until both subscribers heard a change
 * (a subscription is set up asynchronously: a write before it is ready is not heard). Answers the
 * names written, in order.
 */
async function writeUntilHeard(stack: GatewayStack, id: string, heard: () => boolean): Promise<string[]> {
  const written: string[] = [];
  for (let attempt = 0; attempt < 6 && !heard(); attempt++) {
    const name = `Ingrid${attempt}${Date.now() % 100000}`;
    const res = await stack.query(`mutation($id: ID!, $name: String!) { updateLegacyUser(id: $id, input: { firstName: $name }) { __typename } }`, { id, name });
    expect(res.data?.updateLegacyUser?.__typename, JSON.stringify(res.errors)).toBe("Employee");
    written.push(name);
    const end = Date.now() + 2500;
    while (!heard() && Date.now() < end) await sleep(10);
  }
  return written;
}

function e2eSuite(mode: "poll" | "webhook") {
  describe(`a legacy write through the gateway reaches its subscribers (DIRECTORY_EVENTS=${mode})`, () => {
    const stack = useFixture(`the gateway stack (${mode})`, async () => {
      if (mode === "poll") return startGatewayStack({ env: { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "20" } });
      const port = await freePort();
      return startGatewayStack({
        ports: { people: port },
        env: { DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: `http://127.0.0.1:${port}/directory-events` },
      });
    });
    const disposers: Array<() => unknown> = [];
    afterEach(async () => {
      for (const d of disposers.splice(0)) await d();
    });

    it("graphql-ws and graphql-sse clients receive the change, cross-subgraph fields resolved and fresh", async () => {
      const id = mode === "poll" ? "10" : "11";
      const before = (await stack.query(READ, { id })).data.employee;
      const { overWs, overSse } = clients(stack, disposers, [id]);
      const written = await writeUntilHeard(stack, id, () => overWs.results.length > 0 && overSse.results.length > 0);
      for (const sub of [overWs, overSse]) {
        expect(sub.error, JSON.stringify(sub.error)).toBeNull();
        expect(sub.results.length, `no event heard after ${written.length} writes`).toBeGreaterThan(0);
      }
      // the read after the event is fresh: the last name written
      const after = (await stack.query(READ, { id })).data.employee;
      expect(after.givenName).toBe(written.at(-1));
      for (const sub of [overWs, overSse]) {
        const event = sub.results[0];
        expect(event.errors, JSON.stringify(event.errors)).toBeUndefined();
        const payload = event.data.employeeChanged;
        expect(payload.topic).toBe("employee.updated");
        // the change of the first write heard, its previous value the one before it
        const index = written.indexOf(payload.employee.givenName);
        expect(index, `${payload.employee.givenName} is none of ${written.join(", ")}`).toBeGreaterThanOrEqual(0);
        expect(payload.previousAttributes).toMatchObject({ givenName: index === 0 ? before.givenName : written[index - 1] });
        // the other subgraphs' fields, as a query reads them
        expect(payload.employee.manager).toEqual(after.manager);
        expect(payload.employee.applicableJobPosition).toEqual(after.applicableJobPosition);
        expect(typeof payload.employee.applicableJobPosition?.department?.name).toBe("string");
      }
    });
  });
}

e2eSuite("poll");
e2eSuite("webhook");
