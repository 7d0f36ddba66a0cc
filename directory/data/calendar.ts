/**
 * Dates as day numbers (days since 1970-01-01, UTC) while generating: arithmetic on integers is
 * cheap and exact, and the strings are only built once per distinct day.
 */

const DAY_MS = 86_400_000;
/** remembered dates span 1900-01-01 to 2173 */
const EPOCH_OFFSET = 25_567;
const DATE_SLOTS = 80_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` -> day number; throws on anything that is not a real calendar date */
export function parseIsoDate(text: string): number {
  const match = DATE_PATTERN.exec(text);
  if (!match) throw new RangeError(`expected a date as YYYY-MM-DD, got ${JSON.stringify(text)}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    throw new RangeError(`${JSON.stringify(text)} is not a calendar date`);
  }
  return Math.floor(ms / DAY_MS);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Formats day numbers, remembering each one: even a large company uses only some tens of
 * thousands of distinct days, and each record then shares the same string.
 */
export class DayFormatter {
  /** by day number + EPOCH_OFFSET: an array lookup is much cheaper than a Map's */
  private readonly dates: Array<string | undefined> = new Array(DATE_SLOTS);
  /** `THH:MM:SS.000Z` by second of the day */
  private readonly times: Array<string | undefined> = new Array(86_400);

  date(day: number): string {
    const slot = day + EPOCH_OFFSET;
    if (slot < 0 || slot >= DATE_SLOTS) return new Date(day * DAY_MS).toISOString().slice(0, 10);
    let text = this.dates[slot];
    if (text === undefined) {
      text = new Date(day * DAY_MS).toISOString().slice(0, 10);
      this.dates[slot] = text;
    }
    return text;
  }

  /**
   * A UTC timestamp `second` seconds after the epoch, as the remembered date joined to a
   * remembered time of day. Both halves are shared, so each of the millions of time stamps of a
   * large company costs one small string node; formatting each with `toISOString` took a third
   * of the generation time.
   */
  timestamp(second: number): string {
    const day = Math.floor(second / 86_400);
    const rest = second - day * 86_400;
    let time = this.times[rest];
    if (time === undefined) {
      time = new Date(rest * 1000).toISOString().slice(10);
      this.times[rest] = time;
    }
    return this.date(day) + time;
  }

  /** month (1-12) and day of month of a day number */
  monthDay(day: number): { month: number; day: number } {
    const d = new Date(day * DAY_MS);
    return { month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  }

  year(day: number): number {
    return new Date(day * DAY_MS).getUTCFullYear();
  }
}
