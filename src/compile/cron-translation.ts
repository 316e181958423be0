import { goCronProblem } from '../time/index.js';

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
