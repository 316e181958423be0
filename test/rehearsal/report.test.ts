// The rehearsal's report: per check the events seen, agreeing and diverging, then each diverging check's first ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { divergedAny, formatRehearsal, summarizeRehearsal } from '../../src/rehearsal/report.js';
import type { RehearsalReport } from '../../src/store/index.js';

const report: RehearsalReport = {
  configuration: 'abc123',
  since: Date.UTC(2026, 0, 2, 3, 4, 5),
  skipped: 2,
  checks: [
    { check: 'disk', seen: 5, agreed: 5, diverged: 0, last_at: 0, first: [] },
    {
      check: 'load',
      seen: 3,
      agreed: 2,
      diverged: 1,
      last_at: 0,
      first: [
        {
          at: Date.UTC(2026, 0, 2, 4, 0, 0) / 1000,
          client: 'web-1',
          status: 2,
          action: 'create',
          kinds: ['handlers', 'tokens'],
          handlers: [{ handler: 'mail', legacy: 'handled', v2: 'filtered by occurrences' }],
          tokens: [
            { token: ':::load.warning:::', label: 'load_warning' },
            { token: ':::name:::', label: null },
          ],
          why: ['occurrences counted differently'],
        },
      ],
    },
  ],
};

test('totals: events seen, agreeing and diverging over every check', () => {
  const summary = summarizeRehearsal(report);
  assert.deepEqual([summary.seen, summary.agreed, summary.diverged], [8, 7, 1]);
  assert.equal(divergedAny(report), true);
  assert.equal(divergedAny({ ...report, checks: [report.checks[0]!] }), false);
});

test('markdown: a table of checks, then the first divergences of each diverging check', () => {
  assert.equal(
    formatRehearsal(report, 'markdown'),
    [
      '# What will behave differently (rehearsed on live events)',
      '',
      'Configuration `abc123`, since 2026-01-02T03:04:05.000Z: 8 events on 2 checks, 7 agreeing, 1 diverging; 2 not rehearsed (the sandbox busy or too many waiting).',
      '',
      '| Check | Seen | Agreeing | Diverging |',
      '| --- | ---: | ---: | ---: |',
      '| `disk` | 5 | 5 | 0 |',
      '| `load` | 3 | 2 | 1 |',
      '',
      '## `load`: 1 of 3 diverged (first 1)',
      '',
      '- 2026-01-02T04:00:00.000Z, client `web-1`, status 2 (create): handlers, tokens',
      '  - handler `mail`: legacy handled; Sensu Go filtered by occurrences',
      '  - token `:::load.warning:::` (label `load_warning`): the command would run differently',
      '  - token `:::name:::`: the command would run differently',
      '  - why: occurrences counted differently',
      '',
    ].join('\n'),
  );
});

test("inside compile's report the headings go one level down; all agreeing says so", () => {
  const agreeing = { ...report, skipped: 0, checks: [report.checks[0]!] };
  const text = formatRehearsal(agreeing, 'markdown', '##');
  assert.ok(text.startsWith('## What will behave differently'));
  assert.match(text, /5 events on 1 checks, 5 agreeing, 0 diverging\.\n/);
  assert.ok(text.endsWith('Sensu Go would have done the same with every event.\n'));
});

test('nothing rehearsed yet says how to get a report', () => {
  const empty = formatRehearsal({ configuration: null, since: null, skipped: 0, checks: [] }, 'markdown');
  assert.match(empty, /No legacy event has been rehearsed yet/);
  assert.match(formatRehearsal({ ...report, checks: [] }, 'markdown'), /No legacy event has been rehearsed yet/);
});

test('json: the report with its totals', () => {
  const json = JSON.parse(formatRehearsal(report, 'json')) as Record<string, unknown>;
  assert.deepEqual([json.seen, json.agreed, json.diverged, json.configuration], [8, 7, 1, 'abc123']);
  assert.equal((json.checks as unknown[]).length, 2);
});
