import { IANAZone } from 'luxon';

// Sensu Go parses `cron` with robfig/cron v3 ParseStandard: five fields or a descriptor, an optional zone prefix.
const FIELDS = [
  { name: 'minute', min: 0, max: 59, names: null },
  { name: 'hour', min: 0, max: 23, names: null },
  { name: 'day of month', min: 1, max: 31, names: null },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
] as const;
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
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

/** Why Sensu Go's cron parser refuses `spec`, or null when it accepts it. */
export function goCronProblem(spec: string): string | null {
  let text = spec;
  const zone = /^(?:CRON_TZ|TZ)=(\S+)\s*(.*)$/.exec(text);
  if (zone) {
    if (!IANAZone.isValidZone(zone[1]!)) return `provided bad location ${zone[1]}`;
    text = zone[2]!;
  }
  text = text.trim();
  if (text === '') return 'empty spec string';
  if (text.startsWith('@')) {
    if (DESCRIPTORS.has(text)) return null;
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

export type CronTranslation = { cron: string; notes: string[] } | { problem: string };

// Day of week 7 is Sunday in the legacy parser; Sensu Go only knows 0.
function sundayAsZero(field: string): string | null {
  const out: string[] = [];
  for (const piece of field.split(',')) {
    if (!/(^|-)7($|-|\/)/.test(piece)) out.push(piece);
    else if (piece === '7') out.push('0');
    else if (/^\d-7$/.test(piece)) out.push(piece[0] === '7' ? '0' : `${piece[0]}-6`, '0');
    else return null;
  }
  return [...new Set(out)].join(',');
}

/** A legacy cron string as one Sensu Go accepts with the same schedule, or why there is none. */
export function translateCron(legacy: string): CronTranslation {
  const notes: string[] = [];
  const zone = /^((?:CRON_TZ|TZ)=\S+)\s+(.*)$/.exec(legacy.trim());
  const prefix = zone ? `${zone[1]} ` : '';
  let body = (zone ? zone[2]! : legacy).trim();
  if (body.startsWith('@')) body = body.toLowerCase();
  else {
    const fields = body.split(/\s+/);
    if (fields.length === 6) {
      notes.push(`the sixth field (${fields[5]}) was ignored by the legacy scheduler and is dropped`);
      fields.length = 5;
    }
    if (fields.length === 5) {
      const dow = sundayAsZero(fields[4]!);
      if (dow === null) return { problem: `day of week ${fields[4]} uses 7 in a step; Sensu Go's parser refuses 7` };
      if (dow !== fields[4]) notes.push(`day of week 7 (Sunday) is written 0 (${fields[4]} → ${dow})`);
      fields[4] = dow;
    }
    body = fields.join(' ');
  }
  const cron = prefix + body;
  const problem = goCronProblem(cron);
  return problem ? { problem } : { cron, notes };
}
