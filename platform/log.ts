/**
 * Structured logs: one JSON object per line (warnings and errors on stderr, the rest on stdout),
 * filtered by `LOG_LEVEL` (`debug`, `info` (default), `warn`, `error`, `silent`). Never log
 * tokens, keys or bodies. A line written while a request is served carries its `requestId`, and
 * its `traceId` and `spanId` when tracing is on (request-scope.ts), so that the gateway's line and
 * the subgraphs' lines of one operation join.
 *
 * Hand-written rather than pino: what it does is this one function (a line, a level filter, a sink
 * the tests collect synchronously); pino's own formats (numeric levels, `pid`/`hostname`) would
 * change every line operators already parse, for no feature used here.
 */

import { Environment } from "./config.js";
import { requestFields } from "./request-scope.js";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/** LOG_LEVEL (every process), in any case; default `info`. */
export function readLogLevel(env: NodeJS.ProcessEnv = process.env): LogLevel {
  return new Environment(env).choice("LOG_LEVEL", Object.keys(LEVELS) as LogLevel[], "info", { caseless: true });
}

/** Longest text of a logged field taken from a request (operation names, error messages). */
export const MAX_LOGGED_TEXT = 200;

/** `value` cut to `max` characters, marked with an ellipsis and the length it had. */
export function truncate(value: string, max = MAX_LOGGED_TEXT): string {
  return value.length > max ? `${value.slice(0, max)}… (${value.length} characters)` : value;
}

/** Where a log line goes (tests collect the lines). */
export type LogSink = (line: string, level: LogLevel) => void;

/** warnings and errors to stderr, the rest to stdout */
const standardStreams: LogSink = (line, level) => (LEVELS[level] >= LEVELS.warn ? process.stderr : process.stdout).write(line + "\n");

export class Logger {
  constructor(
    readonly component: string,
    readonly level: LogLevel = readLogLevel(),
    private readonly sink: LogSink = standardStreams,
  ) {}

  private write(level: LogLevel, msg: string, fields: Record<string, unknown>): void {
    if (LEVELS[level] < LEVELS[this.level]) return;
    const core = { time: new Date().toISOString(), level, component: this.component, msg };
    // core first for the order of the keys, and again last so that no field can overwrite it
    this.sink(JSON.stringify({ ...core, ...requestFields(), ...fields, ...core }), level);
  }

  debug(msg: string, fields: Record<string, unknown> = {}): void {
    this.write("debug", msg, fields);
  }
  info(msg: string, fields: Record<string, unknown> = {}): void {
    this.write("info", msg, fields);
  }
  warn(msg: string, fields: Record<string, unknown> = {}): void {
    this.write("warn", msg, fields);
  }
  error(msg: string, fields: Record<string, unknown> = {}): void {
    this.write("error", msg, fields);
  }
}
