import { isPlainObject } from './merge.js';
import type { Violation } from './validate.js';
import { parseTime } from '../time/parse-time.js';
import { parseCron, cronWarning } from '../time/cron.js';

// Accepted as legacy accepted them, but not meaning what they say: each is a warning, never an error.

function windowNotes(scope: string, attribute: string, prefix: readonly string[], windows: unknown): Violation[] {
  const out: Violation[] = [];
  const days = isPlainObject(windows) ? windows.days : undefined;
  if (!isPlainObject(days)) return out;
  for (const [day, list] of Object.entries(days)) {
    if (!Array.isArray(list)) continue;
    list.forEach((window, index) => {
      if (!isPlainObject(window)) return;
      for (const bound of ['begin', 'end'] as const) {
        const written = window[bound];
        const zone = parseTime(written)?.ignoredZone;
        if (!zone) continue;
        out.push({
          segments: [...prefix, attribute, 'days', day, String(index), bound],
          message: `${scope} ${attribute} time ${JSON.stringify(written)}: zone ${JSON.stringify(zone)} is ignored (as legacy did): the time is read in the process's local time zone`,
        });
      }
    });
  }
  return out;
}

/** Warnings for what loads but means something other than it says: zone names in time windows, crons that do not fire as written. */
export function legacyMeaningNotes(merged: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const checks = isPlainObject(merged.checks) ? merged.checks : {};
  for (const [name, check] of Object.entries(checks)) {
    if (!isPlainObject(check)) continue;
    if (typeof check.cron === 'string') {
      const schedule = parseCron(check.cron);
      const warning = schedule && cronWarning(check.cron, schedule);
      if (warning) out.push({ segments: ['checks', name, 'cron'], message: warning });
    }
    if (check.subdue) out.push(...windowNotes('check', 'subdue', ['checks', name], check.subdue));
  }
  const filters = isPlainObject(merged.filters) ? merged.filters : {};
  for (const [name, filter] of Object.entries(filters)) {
    if (isPlainObject(filter) && filter.when) out.push(...windowNotes('filter', 'when', ['filters', name], filter.when));
  }
  return out;
}
