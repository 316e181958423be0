import { isPlainObject } from './merge.js';
import type { Violation } from './validate.js';
import { parseTime } from '../time/index.js';
import { parseLegacyCron, cronWarning } from '../time/index.js';

// Accepted as legacy accepted them, but not meaning what they say: each is a warning, never an error.

const BOUNDS = ['begin', 'end'] as const;

// Into `out`; allocates nothing for windows without an ignored zone (the common case over 10,000 checks).
function windowNotes(out: Violation[], scope: string, attribute: string, prefix: readonly string[], windows: unknown): void {
  const days = isPlainObject(windows) ? windows.days : undefined;
  if (!isPlainObject(days)) return;
  for (const day of Object.keys(days)) {
    const list = days[day];
    if (!Array.isArray(list)) continue;
    for (let index = 0; index < list.length; index++) {
      const window: unknown = list[index];
      if (!isPlainObject(window)) continue;
      for (const bound of BOUNDS) {
        const written = window[bound];
        const zone = parseTime(written)?.ignoredZone;
        if (!zone) continue;
        out.push({
          segments: [...prefix, attribute, 'days', day, String(index), bound],
          message: `${scope} ${attribute} time ${JSON.stringify(written)}: zone ${JSON.stringify(zone)} is ignored (as legacy did): the time is read in the process's local time zone`,
        });
      }
    }
  }
}

// The ttl must exceed the interval; legacy loaded a shorter one (cron schedules have no interval to compare).
function ttlNote(out: Violation[], name: string, check: Record<string, unknown>): void {
  const { ttl, interval, cron } = check;
  if (typeof ttl !== 'number' || typeof interval !== 'number' || ttl <= 0 || ttl > interval || typeof cron === 'string') return;
  out.push({
    segments: ['checks', name, 'ttl'],
    message: `check ttl ${ttl} is not greater than its interval ${interval} (Sensu Go refuses it: "ttl must be greater than check interval"): the result is stale before the next run, so a TTL event follows every run`,
  });
}

/** Warnings for what loads but means something other than it says: zone names in time windows, crons that do not fire as written, a ttl within the interval, hook "0". */
export function legacyMeaningNotes(merged: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const checks = isPlainObject(merged.checks) ? merged.checks : {};
  for (const name of Object.keys(checks)) {
    const check = checks[name];
    if (!isPlainObject(check)) continue;
    if (typeof check.cron === 'string') {
      const schedule = parseLegacyCron(check.cron);
      const warning = schedule && cronWarning(check.cron, schedule);
      if (warning) out.push({ segments: ['checks', name, 'cron'], message: warning });
    }
    if (check.subdue) windowNotes(out, 'check', 'subdue', ['checks', name], check.subdue);
    ttlNote(out, name, check);
    if (isPlainObject(check.hooks) && Object.hasOwn(check.hooks, '0')) {
      out.push({
        segments: ['checks', name, 'hooks', '0'],
        message: 'check hook key "0": the specification names status hooks 1 to 255; "0" runs for status 0, before "ok", as legacy did: name it "ok"',
      });
    }
  }
  const filters = isPlainObject(merged.filters) ? merged.filters : {};
  for (const [name, filter] of Object.entries(filters)) {
    if (isPlainObject(filter) && filter.when) windowNotes(out, 'filter', 'when', ['filters', name], filter.when);
  }
  return out;
}
