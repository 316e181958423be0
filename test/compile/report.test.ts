// The migration report: per legacy definition what it became and its warnings, what was refused, what differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatReport } from '../../src/compile/report.js';
import type { CompileResult } from '../../src/compile/model.js';

const result = (): CompileResult => ({
  resources: [{ type: 'CheckConfig' }, { type: 'Handler' }] as unknown as CompileResult['resources'],
  warnings: [
    { code: 'CB_CONFIG_LINT', file: '/etc/sensu/conf.d/disk.json', line: 3, column: 5, path: '/checks/disk/interval', message: 'rounded' },
    { code: 'CB_CONFIG_LINT', file: null, line: null, column: null, path: '/client/redact', message: 'client note' },
    { code: 'CB_CONFIG_LINT', file: null, line: null, column: null, path: '/handlers/a~1b/type', message: 'slash in name' },
  ],
  refused: [{ resource: 'CheckConfig/bad name', reason: 'name is invalid' }],
  became: new Map([
    ['checks/disk', ['CheckConfig/disk', 'Asset/x']],
    ['handlers/mail', []],
  ]),
  differences: ['subdue is a time window'],
  labelReport: {},
  labelsRead: new Map(),
});

test('markdown: counts, refusals, each definition in name order with what it became and its warnings, then differences', () => {
  assert.equal(
    formatReport(result(), { major: 6, minor: Infinity }, 'markdown'),
    [
      '# Migration report (Sensu Go 6.x)',
      '',
      '2 resources emitted, 3 warnings, 1 refused.',
      '',
      '## Refused (Sensu Go would reject them: not written)',
      '',
      '- `CheckConfig/bad name`: name is invalid',
      '',
      '## Definitions',
      '',
      '### checks/disk',
      '',
      'Became: `CheckConfig/disk`, `Asset/x`',
      '',
      '- /etc/sensu/conf.d/disk.json:3:5 /checks/disk/interval: rounded',
      '',
      '### client',
      '',
      'Became: nothing',
      '',
      '- <settings>:0:0 /client/redact: client note',
      '',
      '### handlers/a/b',
      '',
      'Became: nothing',
      '',
      '- <settings>:0:0 /handlers/a~1b/type: slash in name',
      '',
      '### handlers/mail',
      '',
      'Became: nothing',
      '',
      '## What behaves differently',
      '',
      '- subdue is a time window',
      '',
    ].join('\n'),
  );
});

test('json: the same content as one document, the target with its minor version when one is named', () => {
  const report = JSON.parse(formatReport(result(), { major: 5, minor: 21 }, 'json')) as Record<string, unknown>;
  assert.equal(report.target, '5.21');
  assert.equal(report.emitted, 2);
  assert.deepEqual(report.refused, [{ resource: 'CheckConfig/bad name', reason: 'name is invalid' }]);
  assert.deepEqual(report.differences, ['subdue is a time window']);
  assert.deepEqual(
    (report.definitions as { definition: string }[]).map((d) => d.definition),
    ['checks/disk', 'client', 'handlers/a/b', 'handlers/mail'],
  );
  assert.deepEqual((report.definitions as unknown[])[0], {
    definition: 'checks/disk',
    became: ['CheckConfig/disk', 'Asset/x'],
    warnings: ['/etc/sensu/conf.d/disk.json:3:5 /checks/disk/interval: rounded'],
  });
});

test('nothing refused: no refused section', () => {
  const text = formatReport({ ...result(), refused: [] }, { major: 6, minor: Infinity }, 'markdown');
  assert.ok(!text.includes('## Refused'));
  assert.match(text, /2 resources emitted, 3 warnings, 0 refused\./);
});
