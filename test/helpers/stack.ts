import { startDirectory, type DirectoryOptions, type RunningDirectory } from "../../directory/server.js";
import { startStack, type Stack, type StackOptions } from "../../harness/stack.js";
import { useFixture } from "./fixture.js";

// the starters live in harness/ (the benchmark starts stacks too); here, what ties them to a test file's hooks
export * from "../../harness/stack.js";

/** A stack for the tests of the file (or `describe` block): started before them, closed after (see useFixture). */
export function useStack(options: StackOptions = {}): Stack {
  return useFixture("the stack", () => startStack(options));
}

/** The in-process directory alone for the tests of the file (or `describe` block), on an ephemeral port. */
export function useDirectory(options: DirectoryOptions = {}): RunningDirectory {
  return useFixture("the directory", () => startDirectory(options));
}
