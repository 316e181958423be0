import type { RehearsalReport } from '../store/index.js';

export type RehearsalFormat = 'markdown' | 'json';

/** Whether any rehearsed event diverged (what `checkbridge rehearse` exits 1 on). */
export const divergedAny = (report: RehearsalReport): boolean => report.checks.some((c) => c.diverged > 0);

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The divergences of one check as Markdown list items: when, which client, what each side did, why. */
function divergenceLines(first: Record<string, unknown>[]): string[] {
  const lines: string[] = [];
  for (const d of first) {
    lines.push(`- ${iso(Number(d.at))}, client \`${String(d.client)}\`, status ${String(d.status)} (${String(d.action)}): ${(d.kinds as string[]).join(', ')}`);
    for (const h of (d.handlers ?? []) as { handler: string; legacy: string; v2: string }[])
      lines.push(`  - handler \`${h.handler}\`: legacy ${h.legacy}; Sensu Go ${h.v2}`);
    for (const t of (d.tokens ?? []) as { token: string; label: string | null }[])
      lines.push(`  - token \`${t.token}\`${t.label ? ` (label \`${t.label}\`)` : ''}: the command would run differently`);
    for (const why of (d.why ?? []) as string[]) lines.push(`  - why: ${why}`);
  }
  return lines;
}

/** The report with its totals: events seen, agreeing, diverging. */
export function summarizeRehearsal(report: RehearsalReport): RehearsalReport & { seen: number; agreed: number; diverged: number } {
  const seen = report.checks.reduce((n, c) => n + c.seen, 0);
  const diverged = report.checks.reduce((n, c) => n + c.diverged, 0);
  return { ...report, seen, agreed: seen - diverged, diverged };
}

/**
 * The rehearsal's report: per check the events seen, agreeing and diverging, then each diverging check's first
 * divergences. `heading` is the Markdown level of its title (`#` alone, `##` inside compile's report).
 */
export function formatRehearsal(report: RehearsalReport, format: RehearsalFormat, heading = '#'): string {
  const { seen, diverged } = summarizeRehearsal(report);
  if (format === 'json') return JSON.stringify(summarizeRehearsal(report), null, 2) + '\n';
  const lines = [`${heading} What will behave differently (rehearsed on live events)`, ''];
  if (report.configuration === null || seen === 0) {
    lines.push('No legacy event has been rehearsed yet: run the daemon with the rehearsal on (the default) and let events arrive.', '');
    return lines.join('\n');
  }
  lines.push(
    `Configuration \`${report.configuration}\`, since ${iso(Math.floor(Number(report.since) / 1000))}: ${seen} events on ${report.checks.length} checks, ${seen - diverged} agreeing, ${diverged} diverging${report.skipped ? `; ${report.skipped} not rehearsed (the sandbox busy or too many waiting)` : ''}.`,
    '',
    '| Check | Seen | Agreeing | Diverging |',
    '| --- | ---: | ---: | ---: |',
    ...report.checks.map((c) => `| \`${c.check}\` | ${c.seen} | ${c.agreed} | ${c.diverged} |`),
    '',
  );
  for (const c of report.checks.filter((c) => c.diverged > 0)) {
    lines.push(`${heading}# \`${c.check}\`: ${c.diverged} of ${c.seen} diverged (first ${c.first.length})`, '', ...divergenceLines(c.first), '');
  }
  if (diverged === 0) lines.push('Sensu Go would have done the same with every event.', '');
  return lines.join('\n');
}
