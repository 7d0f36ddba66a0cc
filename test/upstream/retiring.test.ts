import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processMetrics } from "../../platform/metrics.js";
import { Upstream } from "../../subgraphs/shared/upstream/index.js";
import { collectingLogger } from "../helpers/logs.js";
import { configFor, upstreamError, useUpstreamFixture } from "./fixture.js";

/**
 * A route the directory announces it retires: the in-process directory answers the legacy
 * departments, gone since September 2026, with 410, `Sunset` and a `Link` to the current API's
 * `/departments` (as production did for that route). The facade counts every such answer
 * (`upstream_retiring_answers_total`) and logs the first of each route, with the date and the link.
 */

const fx = useUpstreamFixture({ employees: 20, today: "2026-06-15" });
const { logger, lines } = collectingLogger("info");
let upstream: Upstream;
beforeAll(() => {
  upstream = new Upstream(configFor(fx.directory.url), logger);
});
afterAll(() => upstream.close());

const counted = async (route: string) => (await processMetrics().upstreamRetiringAnswers.get()).values.find((v) => v.labels.route === route)?.value ?? 0;

describe("a route the directory retires", () => {
  it("is counted on every answer and logged once, with its Sunset date and its successor", async () => {
    const route = "GET /api/v3/departments";
    const before = await counted(route);
    for (let i = 0; i < 3; i++) expect((await upstreamError(upstream.session().legacy.get("/api/v3/departments", {}))).status).toBe(410);
    expect(await counted(route)).toBe(before + 3);
    const logged = lines.filter((l) => String(l.line.msg).includes("deprecated or will stop answering"));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.level).toBe("warn");
    expect(logged[0]!.line).toMatchObject({ route, status: 410 });
    expect(String(logged[0]!.line.sunset)).toMatch(/2026/);
    expect(String(logged[0]!.line.link)).toContain("/departments");
    // an answer without either header is neither counted nor logged
    await upstream.session().current.page("/departments", { limit: 1 });
    expect(await counted("GET /service-api/departments")).toBe(0);
  });
});
