import { parseTime, type ParsedTime } from '../time/index.js';
import { WEEKDAYS } from '../schedule/index.js';

type Windows = { days?: Record<string, { begin?: unknown; end?: unknown }[]> };
type Result<T> = T | { problem: string };

function bounds(window: { begin?: unknown; end?: unknown }): Result<{ b: ParsedTime; e: ParsedTime }> {
  const b = parseTime(window.begin);
  const e = parseTime(window.end);
  if (!b || !e) return { problem: `window ${JSON.stringify(window)} has a time legacy could not parse` };
  if (b.date || e.date) return { problem: `window ${JSON.stringify(window)} names a date; only times of day have a translation` };
  return { b, e };
}

// Midnight of the bound's day: in the backend's local zone (as legacy used its process zone) or the bound's own offset.
const dayStart = (t: ParsedTime) => (t.offsetMinutes === null ? 'local' : `fixed(${t.offsetMinutes * 60})`);

/**
 * Legacy in_time_windows? as an ES5 expression over `event.timestamp` for Sensu Go's filter engine:
 * `all`, then the weekday in the backend's local time; both ends inclusive; an overnight window covers the end of
 * its own day and the start of the same day (a legacy quirk kept, docs/legacy-quirks.md).
 */
export function windowsExpression(windows: Windows): Result<{ expression: string }> {
  const days = windows.days ?? {};
  const terms: string[] = [];
  for (const day of ['all', ...WEEKDAYS]) {
    const list = days[day];
    if (!Array.isArray(list)) continue;
    const calls: string[] = [];
    for (const window of list) {
      const parsed = bounds(window);
      if ('problem' in parsed) return parsed;
      const { b, e } = parsed;
      calls.push(`w(${dayStart(b)}, ${b.secondsOfDay}, ${dayStart(e)}, ${e.secondsOfDay})`);
    }
    if (calls.length === 0) continue;
    const any = calls.join(' || ');
    terms.push(day === 'all' ? `(${any})` : `(day == ${WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number])} && (${any}))`);
  }
  const body = terms.length ? terms.join(' || ') : 'false';
  const expression =
    '(function (t) { var d = new Date(t * 1000); var day = d.getDay(); ' +
    'var local = t - (d.getHours() * 3600 + d.getMinutes() * 60 + d.getSeconds()); ' +
    'function fixed(o) { return Math.floor((t + o) / 86400) * 86400 - o; } ' +
    'function w(b0, b, e0, e) { var from = b0 + b, to = e0 + e; if (to < from) { if (t < to) { from = b0; } else { to = e0 + 86399.999999; } } return t >= from && t <= to; } ' +
    `return ${body}; })(event.timestamp)`;
  return { expression };
}

export interface Subdue {
  readonly begin: string;
  readonly end: string;
  readonly repeat: string[];
}

function rfc3339(day: number, seconds: number, offsetMinutes: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  let whole = Math.floor(seconds);
  // 24:00 is the next day's midnight.
  if (whole >= 86400) [day, whole] = [day + 1, whole - 86400];
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `2000-01-${pad(day)}T${pad(Math.floor(whole / 3600))}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * Legacy subdue windows as Sensu Go 6.7+ `subdues` (repeated RFC 3339 windows in a fixed offset). Times without a
 * zone take `localOffsetMinutes`; an overnight window becomes its two same-day pieces, as legacy evaluated it.
 */
export function windowsToSubdues(windows: Windows, localOffsetMinutes: number): Result<{ subdues: Subdue[]; usedLocal: boolean }> {
  const subdues: Subdue[] = [];
  let usedLocal = false;
  for (const [day, list] of Object.entries(windows.days ?? {})) {
    const repeat = [day === 'all' ? 'daily' : `${day}s`];
    for (const window of list ?? []) {
      const parsed = bounds(window);
      if ('problem' in parsed) return parsed;
      const { b, e } = parsed;
      if (b.offsetMinutes !== e.offsetMinutes) return { problem: `window ${JSON.stringify(window)} has bounds in different zones` };
      usedLocal ||= b.offsetMinutes === null;
      const offset = b.offsetMinutes ?? localOffsetMinutes;
      if (e.secondsOfDay < b.secondsOfDay) {
        subdues.push({ begin: rfc3339(1, 0, offset), end: rfc3339(1, e.secondsOfDay, offset), repeat });
        subdues.push({ begin: rfc3339(1, b.secondsOfDay, offset), end: rfc3339(2, 0, offset), repeat });
      } else subdues.push({ begin: rfc3339(1, b.secondsOfDay, offset), end: rfc3339(1, e.secondsOfDay, offset), repeat });
    }
  }
  return { subdues, usedLocal };
}
