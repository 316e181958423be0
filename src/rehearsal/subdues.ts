import type { Json } from '../json.js';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

// `2000-01-01T22:00:00+02:00`: the time of day in seconds (the next day's midnight is 86400) and the offset in seconds.
function parse(stamp: string): { seconds: number; offset: number } | null {
  const m = /^\d{4}-\d{2}-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(stamp);
  if (!m) return null;
  const offset = m[5] ? (m[5] === '-' ? -1 : 1) * (Number(m[6]) * 3600 + Number(m[7]) * 60) : 0;
  return { seconds: (Number(m[1]) - 1) * 86400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]), offset };
}

function repeatsOn(repeat: readonly string[], weekday: number): boolean {
  return repeat.some(
    (r) =>
      r === 'daily' ||
      (r === 'weekdays' && weekday >= 1 && weekday <= 5) ||
      (r === 'weekends' && (weekday === 0 || weekday === 6)) ||
      r === `${DAYS[weekday]}s`,
  );
}

/** Whether `timestamp` (epoch seconds) falls in one of a check's `subdues` (the repeated windows compile writes). */
export function inSubdues(subdues: readonly Json[], timestamp: number): boolean {
  for (const subdue of subdues) {
    const begin = parse(String(subdue.begin ?? ''));
    const end = parse(String(subdue.end ?? ''));
    if (!begin || !end) continue;
    const local = timestamp + begin.offset;
    const ofDay = ((local % 86400) + 86400) % 86400;
    const weekday = (((Math.floor(local / 86400) + 4) % 7) + 7) % 7;
    if (!repeatsOn((subdue.repeat ?? []) as string[], weekday)) continue;
    if (ofDay >= begin.seconds && ofDay < end.seconds) return true;
  }
  return false;
}
