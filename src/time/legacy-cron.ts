import { createRequire } from 'node:module';
import type { CronExpressionParser } from 'cron-parser';
import { readLegacyCron } from './legacy-cron-quirks.js';

// Loaded at the first cron (with luxon, ~20 ms): most commands and configurations have none.
const require = createRequire(import.meta.url);
let cronParser: typeof CronExpressionParser | undefined;
function parser(): typeof CronExpressionParser {
  return (cronParser ??= (require('cron-parser') as typeof import('cron-parser')).CronExpressionParser);
}

export interface CronSchedule {
  /** What runs: the expression as written, or as legacy read it when an element matches nothing. */
  readonly expression: string;
  readonly timezone: string | undefined;
  /** False for an expression legacy accepted that never fires as written (`0 0 31 2 *`): it is never scheduled. */
  readonly fires: boolean;
  /** Why it differs from what is written, for a warning; empty when it runs as written. */
  readonly notes: readonly string[];
  /** For one that never fires: what legacy ran instead. */
  readonly legacyFallback: string | null;
}

/** The `@` descriptors robfig/cron and legacy both read, as five fields. */
export const CRON_DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Legacy cron: five fields (a sixth is ignored), the @ aliases, an optional CRON_TZ= prefix; null if invalid. */
export function parseLegacyCron(input: unknown): CronSchedule | null {
  if (typeof input !== 'string') return null;
  let text = input.trim();
  let timezone: string | undefined;
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(text);
  if (tz) {
    timezone = tz[1];
    text = tz[2]!.trim();
  }
  const alias = CRON_DESCRIPTORS[text.toLowerCase()];
  let expression: string;
  if (alias) {
    expression = alias;
  } else {
    const fields = text.split(/\s+/);
    if (fields.length < 5 || fields.length > 6) return null;
    expression = fields.slice(0, 5).join(' ');
  }
  const legacy = readLegacyCron(expression.split(' '));
  try {
    // Prefixing a zero seconds field keeps cron-parser from reading five fields any other way.
    parser().parse('0 ' + (legacy?.expression ?? expression), { tz: timezone ?? undefined, strict: false });
  } catch {
    return null;
  }
  if (!legacy) return { expression, timezone, fires: true, notes: [], legacyFallback: null };
  return { expression: legacy.expression, timezone, fires: legacy.fires, notes: legacy.notes, legacyFallback: legacy.legacyFallback };
}

/** A warning for a cron that does not run as written: what legacy read, and what runs now; null when it does. */
export function cronWarning(written: string, schedule: CronSchedule): string | null {
  if (schedule.notes.length === 0) return null;
  const read = schedule.notes.join('; ');
  if (!schedule.fires) return `check cron ${JSON.stringify(written)} never fires as written: ${read}; checkbridge never runs it (${schedule.legacyFallback})`;
  return `check cron ${JSON.stringify(written)}: ${read}; runs as ${JSON.stringify(schedule.expression)}`;
}

/** The next instant strictly after `after` (epoch ms); only for a schedule that fires. */
export function nextCronInstant(schedule: CronSchedule, after: number): number {
  const it = parser().parse('0 ' + schedule.expression, {
    currentDate: new Date(after),
    tz: schedule.timezone,
  });
  return it.next().getTime();
}
