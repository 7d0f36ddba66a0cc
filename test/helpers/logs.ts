import { Logger, type LogLevel } from "../../platform/log.js";

/** A logger of component `test` at `level` that keeps each line it writes, parsed, with its level. */
export function collectingLogger(level: LogLevel = "debug") {
  const lines: Array<{ line: Record<string, unknown>; level: LogLevel }> = [];
  const logger = new Logger("test", level, (line, lineLevel) => lines.push({ line: JSON.parse(line), level: lineLevel }));
  return { logger, lines };
}
