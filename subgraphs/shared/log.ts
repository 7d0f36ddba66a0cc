/**
 * Structured logs: one JSON object per line on stdout, filtered by `LOG_LEVEL`
 * (`debug`, `info` (default), `warn`, `error`, `silent`). Never log tokens, keys or bodies.
 */

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export function parseLogLevel(value: string | undefined): LogLevel {
  const level = (value ?? "info").toLowerCase();
  if (!(level in LEVELS)) throw new Error(`LOG_LEVEL must be one of ${Object.keys(LEVELS).join(", ")}, got "${value}"`);
  return level as LogLevel;
}

export class Logger {
  constructor(
    readonly component: string,
    readonly level: LogLevel = parseLogLevel(process.env.LOG_LEVEL),
  ) {}

  private write(level: LogLevel, msg: string, fields: Record<string, unknown>): void {
    if (LEVELS[level] < LEVELS[this.level]) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, component: this.component, msg, ...fields });
    if (LEVELS[level] >= LEVELS.warn) process.stderr.write(line + "\n");
    else process.stdout.write(line + "\n");
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
