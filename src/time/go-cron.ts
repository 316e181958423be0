import { CRON_DESCRIPTORS, nextCronInstant, type CronSchedule } from './legacy-cron.js';

// Sensu Go parses `cron` with robfig/cron v3 ParseStandard: five fields or a descriptor, an optional zone prefix.
const FIELDS = [
  { name: 'minute', min: 0, max: 59, names: null },
  { name: 'hour', min: 0, max: 23, names: null },
  { name: 'day of month', min: 1, max: 31, names: null },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
] as const;
const GO_DURATION = /^(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))*$/;

function number(text: string, field: (typeof FIELDS)[number]): number | string {
  const named = field.names ? (field.names as readonly string[]).indexOf(text.toLowerCase()) : -1;
  if (named >= 0) return named + field.min;
  if (!/^\+?\d+$/.test(text)) return `failed to parse int from ${text}`;
  return Number(text);
}

function rangeProblem(expr: string, field: (typeof FIELDS)[number]): string | null {
  const slashes = expr.split('/');
  if (slashes.length > 2) return `too many slashes: ${expr}`;
  const bounds = slashes[0]!.split('-');
  if (bounds.length > 2) return `too many hyphens: ${expr}`;
  let start: number;
  let end: number;
  if (bounds[0] === '*' || bounds[0] === '?') {
    if (bounds.length > 1) return `failed to parse int from ${bounds[0]}`;
    [start, end] = [field.min, field.max];
  } else {
    const s = number(bounds[0]!, field);
    if (typeof s === 'string') return s;
    const e = bounds.length === 2 ? number(bounds[1]!, field) : s;
    if (typeof e === 'string') return e;
    [start, end] = [s, e];
  }
  if (slashes.length === 2) {
    if (!/^\+?\d+$/.test(slashes[1]!)) return `failed to parse int from ${slashes[1]}`;
    if (Number(slashes[1]) === 0) return `step of range should be a positive number: ${expr}`;
    if (bounds.length === 1 && bounds[0] !== '*' && bounds[0] !== '?') end = field.max;
  }
  if (start < field.min) return `beginning of range (${start}) below minimum (${field.min}): ${expr}`;
  if (end > field.max) return `end of range (${end}) above maximum (${field.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return null;
}

/**
 * Why `spec` cannot be scheduled, or null: what Sensu Go's cron parser refuses, and what it accepts but never runs (a
 * day no month has, a duration past Go's) or the cron engine cannot read (an absurdly long list).
 */
export function goCronProblem(spec: string): string | null {
  const parsed = parseGoCron(spec);
  return parsed.kind === 'invalid' ? parsed.problem : null;
}

// Go's time.Duration tops out at 2^63 ns.
const MAX_GO_DURATION_MS = 9_223_372_036_854;

/** The optional `CRON_TZ=`/`TZ=` zone, and the spec after it. */
function splitZone(spec: string): { zone: string | undefined; body: string } {
  const zone = /^(?:CRON_TZ|TZ)=(\S+)\s*(.*)$/.exec(spec);
  return { zone: zone?.[1], body: (zone ? zone[2]! : spec).trim() };
}

/** What a spec the grammar accepts runs as, or why it never runs (probed once: the engine throws on what it cannot read). */
function runningOf(spec: string): GoCron {
  const { zone, body } = splitZone(spec);
  if (body.startsWith('@every ')) {
    const ms = goDurationMs(body.slice(7));
    if (!(ms <= MAX_GO_DURATION_MS)) return { kind: 'invalid', problem: `time: invalid duration ${JSON.stringify(body.slice(7))}` };
    return { kind: 'every', everyMs: Math.max(1000, Math.floor(ms / 1000) * 1000) };
  }
  const expression = Object.hasOwn(CRON_DESCRIPTORS, body) ? CRON_DESCRIPTORS[body]! : body.split(/\s+/).join(' ');
  const schedule: CronSchedule = { expression, timezone: zone, fires: true, notes: [], legacyFallback: null };
  try {
    nextCronInstant(schedule, Date.now());
  } catch (error) {
    return { kind: 'invalid', problem: `never runs: ${(error as Error).message}` };
  }
  return { kind: 'cron', schedule };
}

/** Why Sensu Go's cron parser (robfig/cron ParseStandard) refuses `spec`, or null when it accepts it. */
function grammarProblem(spec: string): string | null {
  const { zone, body: text } = splitZone(spec);
  if (zone !== undefined && !isZone(zone)) return `provided bad location ${zone}`;
  if (text === '') return 'empty spec string';
  if (text.startsWith('@')) {
    if (Object.hasOwn(CRON_DESCRIPTORS, text)) return null;
    if (text.startsWith('@every ') && GO_DURATION.test(text.slice(7))) return null;
    return `unrecognized descriptor: ${text}`;
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: ${text}`;
  for (let i = 0; i < 5; i++) {
    for (const expr of fields[i]!.split(',').filter((e) => e !== '')) {
      const problem = rangeProblem(expr, FIELDS[i]!);
      if (problem) return problem;
    }
  }
  return null;
}

// Intl knows the IANA zones Go's time.LoadLocation reads (without loading luxon for it).
function isZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`1h30m`, `2s`) in ms. */
function goDurationMs(text: string): number {
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) ms += Number(amount) * UNIT_MS[unit!]!;
  return ms;
}

export type GoCron =
  | { readonly kind: 'every'; readonly everyMs: number }
  | { readonly kind: 'cron'; readonly schedule: CronSchedule }
  | { readonly kind: 'invalid'; readonly problem: string };

/**
 * A v2 check's `cron` as Sensu Go's schedulerd reads it (robfig/cron v3 ParseStandard): five fields or a descriptor
 * in the zone of an optional `CRON_TZ=`/`TZ=` prefix; `@every D` repeats every D, whole seconds, at least one.
 */
export function parseGoCron(spec: string): GoCron {
  const problem = grammarProblem(spec);
  return problem ? { kind: 'invalid', problem } : runningOf(spec);
}
