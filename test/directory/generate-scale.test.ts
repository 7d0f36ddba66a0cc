import { describe, expect, it } from "vitest";
import { generateCompany } from "../../directory/data/generate.js";

/** The generator at scale, apart from generate.test.ts: it takes long, so it runs in the slow project. */

const TODAY = "2025-06-15";

describe("generateCompany at scale", () => {
  it("generates 100 000 employees in under 30 seconds", () => {
    const started = performance.now();
    const company = generateCompany({ today: TODAY, employees: 100_000 });
    const seconds = (performance.now() - started) / 1000;
    expect(company.employees).toHaveLength(100_000);
    expect(company.employees[99_999]!.id).toBe("100000");
    expect(seconds).toBeLessThan(30);
  }, 60_000);
});
