import { beforeEach } from "vitest";

/**
 * Every test's name reads: a title interpolated from a value that is not there (`$typename.edges`
 * reads the property `edges` of `typename`; `${x}` of an undefined `x`) prints `undefined`, so a
 * test whose name or a suite's name around it holds the word fails before it runs (a setup file of
 * vitest.config.ts, for both projects).
 */
beforeEach(({ task }) => {
  const names: string[] = [];
  for (let suite: { name: string; suite?: unknown } | undefined = task; suite && suite !== task.file; suite = suite.suite as typeof suite) names.unshift(suite.name);
  const name = names.join(" > ");
  if (/\bundefined\b/.test(name)) throw new Error(`the test's name reads "undefined": ${name}`);
});
