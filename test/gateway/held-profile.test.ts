import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { upstreamCalls } from "../helpers/stack.js";

/**
 * Held reads through the gateway (docs/shared-state.md#what-is-held-and-how-fresh): EmployeeProfile
 * asked 10 times, with the event poll heard (every 500 ms) and holding on, against the same with
 * DIRECTORY_HELD_FRESH_S=0. What the directory received, token requests and event polls left out.
 */

// polled every 500 ms: a pass delayed by a busy machine past the healthy window (3 × 500 ms + 1 s)
// would make a run's reads go upstream
const POLL = { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "500" };
const held = useGatewayStack({ env: { ...POLL, DIRECTORY_HELD_FRESH_S: "60" } });
const plain = useGatewayStack({ env: { ...POLL, DIRECTORY_HELD_FRESH_S: "0" } });
let demo: Demo;

beforeAll(() => {
  demo = pickDemoData(held.directory.company);
});

const REPEATS = 10;

async function profileCalls(on: GatewayStack): Promise<number> {
  const operation = operationNamed(loadOperations(), "EmployeeProfile");
  const run = async () => {
    const response = await on.query(operation.source, variablesOf(demo, operation));
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  };
  await run(); // the plan and the token
  await new Promise((r) => setTimeout(r, 1200)); // two poll passes heard
  on.resetStats();
  for (let i = 0; i < REPEATS; i++) await run();
  const { byRoute } = on.stats();
  return upstreamCalls({ byRoute: Object.fromEntries(Object.entries(byRoute).filter(([route]) => !route.includes("/events"))) });
}

describe("EmployeeProfile repeated through the gateway", () => {
  it(`${REPEATS} times: held reads leave only what the event feed does not cover or no ETag answers`, async () => {
    const without = await profileCalls(plain);
    const withHeld = await profileCalls(held);
    // 13 requests an operation without holding; with it, what no event covers or no ETag answers:
    // the legacy work contracts (no ETag), the probationary periods (no topic) and the reference
    // data, read afresh in the tests' stacks (held by DIRECTORY_REFERENCE_FRESH_S as shipped)
    expect({ without, withHeld }).toEqual({ without: 13 * REPEATS, withHeld: 7 * REPEATS });
  });
});
