import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Logger, type LogLevel } from "../../platform/log.js";
import { SharedState } from "../../platform/shared-state.js";
import { redisAvailable, type RunningRedis, startRedis } from "../helpers/replicas.js";

/**
 * A replica's Redis connection at start (platform/shared-state.ts): a process busy with its own
 * start (bundles, schemas) past the connect timeout while Redis answers has not met an outage, so
 * it says nothing; a Redis that does not answer is still reported, once.
 */

const withRedis = redisAvailable();

function recording(): { logger: Logger; lines: Array<{ level: LogLevel; msg: string }> } {
  const lines: Array<{ level: LogLevel; msg: string }> = [];
  return { lines, logger: new Logger("test", "debug", (line, level) => lines.push({ level, msg: JSON.parse(line).msg })) };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
};

/** The event loop held, as a process compiling its schemas at start holds it. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe.skipIf(!withRedis)("the first connection to Redis", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it("a start that holds the event loop past the connect timeout while Redis answers logs no warning", async () => {
    const { logger, lines } = recording();
    const state = new SharedState({ url: redis.url, prefix: "start-test:", timeoutMs: 200 }, logger);
    try {
      // the socket is opened, then the process is busy past the connect timeout (1 s)
      await new Promise((resolve) => setImmediate(resolve));
      busy(1500);
      await until(() => state.healthy);
      expect(await state.use("test", async (r) => r.ping(), () => "local")).toBe("PONG");
      expect(lines.filter((line) => line.level === "warn")).toEqual([]);
    } finally {
      await state.close();
    }
  });

  it("a use that needs Redis, asked while the first connection is being made, waits for it", async () => {
    const { logger, lines } = recording();
    const state = new SharedState({ url: redis.url, prefix: "start-test:", timeoutMs: 200 }, logger);
    try {
      expect(await state.required("test", async (r) => r.ping())).toBe("PONG");
      expect(lines.filter((line) => line.level === "warn")).toEqual([]);
    } finally {
      await state.close();
    }
  });

  it("a Redis that does not answer is reported once", async () => {
    const { logger, lines } = recording();
    const dead = await startRedis();
    const url = dead.url;
    await dead.close();
    const state = new SharedState({ url, prefix: "start-test:", timeoutMs: 200 }, logger);
    try {
      await until(() => lines.some((line) => line.level === "warn"));
      expect(lines.filter((line) => line.level === "warn").map((line) => line.msg)).toEqual(["redis unavailable: shared state falls back to this process until it answers again"]);
      await expect(state.required("test", async (r) => r.ping())).rejects.toThrow(/unavailable/);
      expect(await state.use("test", async (r) => r.ping(), () => "local")).toBe("local");
    } finally {
      await state.close();
    }
  });
});
