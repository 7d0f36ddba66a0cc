/**
 * Durations of the legacy API: `d.hh:mm:ss`, the day part omitted when zero (a .NET TimeSpan).
 */

const LEGACY = /^(?:(\d+)\.)?(\d{2}):(\d{2}):(\d{2})$/;
/** what a caller may send: hours of any width, seconds optional (`2:30`, `02:30:00`, `1.00:00:00`) */
const INPUT = /^(?:(\d{1,2})\.)?(\d{1,3}):(\d{2})(?::(\d{2}))?$/;

/** Seconds of a legacy duration, or null when it is not one. */
export function durationSeconds(duration: string): number | null {
  const m = LEGACY.exec(duration);
  if (!m) return null;
  const [d, h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || min > 59 || s > 59) return null;
  return d * 86_400 + h * 3600 + min * 60 + s;
}

/**
 * A caller's duration in the legacy form, or null when it cannot be read. Its length is not
 * checked here: a duration over 24h is the upstream's rule 3 to refuse, as data.
 */
export function normaliseDuration(input: string): string | null {
  const m = INPUT.exec(input.trim());
  if (!m) return null;
  const [d, h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (min > 59 || s > 59) return null;
  return formatDuration(d * 86_400 + h * 3600 + min * 60 + s);
}

export function formatDuration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const rest = seconds % 86_400;
  const hms = [Math.floor(rest / 3600), Math.floor((rest % 3600) / 60), rest % 60].map((n) => String(n).padStart(2, "0")).join(":");
  return days > 0 ? `${days}.${hms}` : hms;
}
