import { startGatewayStack, type GatewayStack, type GatewayStackOptions } from "../../harness/gateway-stack.js";
import { useFixture } from "./fixture.js";
import { COLD_REFERENCES, withContract } from "./stack.js";

// the starters live in harness/ (the benchmark starts them too); here, what ties them to a test file's hooks
export * from "../../harness/gateway-stack.js";

/**
 * A gateway stack for the tests of the file (or `describe` block): started before them, closed
 * after (see useFixture); reference data read afresh unless the test asks otherwise (COLD_REFERENCES);
 * its facade kept to production's contract (keepingContract).
 */
export function useGatewayStack(options: GatewayStackOptions = {}): GatewayStack {
  return useFixture("the gateway stack", () => withContract(options, (directory) => startGatewayStack({ ...options, directory, env: { ...COLD_REFERENCES, ...options.env } })));
}
