import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// `npm run test:browser`: the tests in a real browser (Debian's Chromium), kept out of `npm test`.
// The main configuration without its projects (fast and slow), with other files (mergeConfig would
// add to its include list, not replace it).
const { projects: _projects, ...test } = base.test!;

export default defineConfig({
  ...base,
  test: { ...test, include: ["test/browser/**/*.test.ts"], exclude: [], testTimeout: 120_000 },
});
