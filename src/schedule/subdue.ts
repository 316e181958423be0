import { DateTime, FixedOffsetZone, type Zone } from 'luxon';
import { parseTime, type ParsedTime } from '../time/index.js';

export interface WindowSet {
  readonly days?: Readonly<Record<string, readonly { begin?: unknown; end?: unknown }[] | unknown>>;
}

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

// Resolves a window bound to an instant: today in the bound's own zone (or the process zone), ms with fractions.
function resolve(parsed: ParsedTime, now: number, localZone: Zone | string): { at: number; dayStart: number; dayEnd: number } {
  const zone = parsed.offsetMinutes === null ? localZone : FixedOffsetZone.instance(parsed.offsetMinutes);
  let day = DateTime.fromMillis(now, { zone }).startOf('day');
  if (parsed.date) {
    day = day.set({ year: parsed.date.year ?? day.year, month: parsed.date.month ?? day.month, day: parsed.date.day });
  }
  const dayStart = day.toMillis();
  const dayEnd = day.endOf('day').toMillis() + 0.999999; // 23:59:59.999999999
  return { at: dayStart + parsed.secondsOfDay * 1000, dayStart, dayEnd };
}

/** Legacy in_time_window?: both ends inclusive; an overnight window excludes its exact end (a kept quirk, docs/legacy-quirks.md). */
export function inTimeWindow(window: { begin?: unknown; end?: unknown }, now: number, localZone: Zone | string = 'local'): boolean {
  if (!window || typeof window !== 'object' || window.begin === undefined || window.end === undefined) return false;
  const b = parseTime(window.begin);
  const e = parseTime(window.end);
  if (!b || !e) return false;
  const begin = resolve(b, now, localZone);
  const end = resolve(e, now, localZone);
  let from = begin.at;
  let to = end.at;
  if (to < from) {
    if (now < to) from = begin.dayStart;
    else to = end.dayEnd;
  }
  return now >= from && now <= to;
}

/** Legacy in_time_windows?: `all`, then today's weekday in the process zone. */
export function inTimeWindows(windows: WindowSet | undefined, now: number, localZone: Zone | string = 'local'): boolean {
  const days = (windows?.days ?? {}) as Record<string, unknown>;
  const any = (list: unknown) => Array.isArray(list) && list.some((w) => inTimeWindow(w as { begin?: unknown; end?: unknown }, now, localZone));
  if (any(days.all)) return true;
  const weekday = WEEKDAYS[DateTime.fromMillis(now, { zone: localZone }).weekday % 7]!;
  return any(days[weekday]);
}

export function isSubdued(check: { subdue?: unknown }, now: number, localZone: Zone | string = 'local'): boolean {
  return Boolean(check.subdue) && inTimeWindows(check.subdue as WindowSet, now, localZone);
}
