import { startDirectory, type DirectoryOptions, type RunningDirectory } from "../../directory/server.js";
import { startStack, type Stack, type StackOptions } from "../../harness/stack.js";
import { keepingContract } from "./contract.js";
import { useFixture } from "./fixture.js";

// the starters live in harness/ (the benchmark starts stacks too); here, what ties them to a test file's hooks
export * from "../../harness/stack.js";

/**
 * The tests' stacks read reference data and the legacy time data afresh on every operation
 * (DIRECTORY_REFERENCE_FRESH_S=0, DIRECTORY_LEGACY_TIME_FRESH_S=0): what a test counts of upstream
 * calls is then the operation's own, not what an earlier test left held. A test of what the
 * defaults as shipped cost asks for them with AS_SHIPPED.
 */
export const COLD_REFERENCES: Readonly<Record<string, string>> = { DIRECTORY_REFERENCE_FRESH_S: "0", DIRECTORY_LEGACY_TIME_FRESH_S: "0" };
/** the subgraphs' settings as shipped: reference data and legacy time data held for their default bounds (a blank setting is unset) */
export const AS_SHIPPED: Readonly<Record<string, string>> = { DIRECTORY_REFERENCE_FRESH_S: "", DIRECTORY_LEGACY_TIME_FRESH_S: "" };

/**
 * A stack for the tests of the file (or `describe` block): started before them, closed after (see
 * useFixture), failing the file when its facade sent a request production's contract does not
 * describe (keepingContract).
 */
export function useStack(options: StackOptions = {}): Stack {
  return useFixture("the stack", () => withContract(options, (directory) => startStack({ ...options, directory, env: { ...COLD_REFERENCES, ...options.env } })));
}

/** `start` given directory options that record the facade's breaches of the contract, its close checking them first. */
export async function withContract<S extends { close(): Promise<void> }>(options: { directory?: DirectoryOptions }, start: (directory: DirectoryOptions) => Promise<S>): Promise<S> {
  const contract = keepingContract(options.directory);
  const stack = await start(contract.directory);
  const close = stack.close.bind(stack);
  stack.close = async () => {
    await close();
    contract.check();
  };
  return stack;
}

/** The in-process directory alone for the tests of the file (or `describe` block), on an ephemeral port. */
export function useDirectory(options: DirectoryOptions = {}): RunningDirectory {
  return useFixture("the directory", () => startDirectory({ limits: { requests: 0 }, ...options }));
}
