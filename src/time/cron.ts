import { CronExpressionParser } from 'cron-parser';

export interface CronSchedule {
  readonly expression: string;
  readonly timezone: string | undefined;
}

const ALIASES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Legacy cron: five fields (a sixth is ignored), the @ aliases, an optional CRON_TZ= prefix; null if invalid. */
export function parseCron(input: unknown): CronSchedule | null {
  if (typeof input !== 'string') return null;
  let text = input.trim();
  let timezone: string | undefined;
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(text);
  if (tz) {
    timezone = tz[1];
    text = tz[2]!.trim();
  }
  const alias = ALIASES[text.toLowerCase()];
  let expression: string;
  if (alias) {
    expression = alias;
  } else {
    const fields = text.split(/\s+/);
    if (fields.length < 5 || fields.length > 6) return null;
    expression = fields.slice(0, 5).join(' ');
  }
  try {
    // Prefixing a zero seconds field keeps cron-parser from reading five fields any other way.
    CronExpressionParser.parse('0 ' + expression, { tz: timezone ?? undefined, strict: false });
  } catch {
    return null;
  }
  return { expression, timezone };
}

/** The next instant strictly after `after` (epoch ms). */
export function nextCronInstant(schedule: CronSchedule, after: number): number {
  const it = CronExpressionParser.parse('0 ' + schedule.expression, {
    currentDate: new Date(after),
    tz: schedule.timezone,
  });
  return it.next().getTime();
}
