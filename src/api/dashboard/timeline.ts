import type { Settings } from '../../config/index.js';
import { timingOf, instantsBetween } from '../../schedule/index.js';
import { isSubdued } from '../../schedule/index.js';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Minute-sampled spans in [from, to) during which `check` is subdued, in the daemon's zone (as the scheduler sees it). */
function subdueBands(check: { subdue?: unknown }, from: number, to: number): { start: string; end: string }[] {
  if (!check.subdue) return [];
  const bands: { start: string; end: string }[] = [];
  let open: number | null = null;
  const first = Math.floor(from / MINUTE) * MINUTE;
  for (let at = first; at < to; at += MINUTE) {
    const subdued = isSubdued(check, Math.max(at, from));
    if (subdued && open === null) open = Math.max(at, from);
    if (!subdued && open !== null) {
      bands.push({ start: iso(open), end: iso(at) });
      open = null;
    }
  }
  if (open !== null) bands.push({ start: iso(open), end: iso(to) });
  return bands;
}

/** The next executions of one check over the coming `hours`, from the scheduler's own planner (`checkbridge schedule`). */
export function checkTimeline(settings: Settings, name: string, from: number, hours: number) {
  const check = settings.checks[name]!;
  const to = from + hours * 3600_000;
  const timing = timingOf(check, String(settings.client.name));
  const instants = check.publish === false && !check.standalone ? [] : instantsBetween(timing, from, to, 5000);
  const executions = instants.map((at) => ({ at: iso(at), subdued: isSubdued(check, at) }));
  // Splay: where in each interval this check's runs fall (its key's hash), the same for every window.
  const splay =
    timing.kind === 'interval' && instants.length > 0
      ? { interval_s: timing.intervalMs / 1000, offset_s: Math.round((instants[0]! % timing.intervalMs) / 1000), key: timing.key }
      : null;
  return {
    check: name,
    from: iso(from),
    to: iso(to),
    zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    timing: timing.kind === 'cron' ? { kind: 'cron', cron: check.cron } : { kind: timing.kind, interval_s: check.interval ?? null },
    splay,
    executions,
    subdue_bands: subdueBands(check, from, to),
  };
}
