import { describe, expect, it } from "vitest";
import { readLogLevel } from "../../platform/log.js";
import { collectingLogger } from "../helpers/logs.js";

describe("the logger", () => {
  it("writes one JSON object per line with time, level, component and message first", () => {
    const { logger, lines } = collectingLogger("debug");
    logger.info("operation", { durationMs: 3 });
    expect(Object.keys(lines[0]!.line)).toEqual(["time", "level", "component", "msg", "durationMs"]);
    expect(lines[0]!.line).toMatchObject({ level: "info", component: "test", msg: "operation", durationMs: 3 });
    expect(Date.parse(String(lines[0]!.line.time))).not.toBeNaN();
  });

  it("drops lines below its level", () => {
    const { logger, lines } = collectingLogger("warn");
    logger.debug("a");
    logger.info("b");
    logger.warn("c");
    logger.error("d");
    expect(lines.map((l) => [l.line.msg, l.level])).toEqual([
      ["c", "warn"],
      ["d", "error"],
    ]);
  });

  it("silent drops everything", () => {
    const { logger, lines } = collectingLogger("silent");
    logger.error("x");
    expect(lines).toEqual([]);
  });

  it("a field cannot overwrite the line's own level or message", () => {
    const { logger, lines } = collectingLogger("info");
    logger.info("real", { msg: "fake", level: "error", component: "other" });
    expect(lines[0]!.line).toMatchObject({ msg: "real", level: "info", component: "test" });
  });

  it("LOG_LEVEL unset is info", () => {
    expect(readLogLevel({})).toBe("info");
  });

  it.each([
    ["", "info"],
    ["DEBUG", "debug"],
    [" warn ", "warn"],
    ["silent", "silent"],
  ])("LOG_LEVEL %j is %s", (value, level) => {
    expect(readLogLevel({ LOG_LEVEL: value })).toBe(level);
  });

  it.each(["verbose", "constructor", "toString"])("LOG_LEVEL %j is refused with a message naming the variable", (value) => {
    expect(() => readLogLevel({ LOG_LEVEL: value })).toThrow(/^LOG_LEVEL must be one of debug, info, warn, error, silent/);
  });
});
