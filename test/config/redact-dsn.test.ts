import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactDsn } from '../../src/config/redact-dsn.js';
import { redact } from '../../src/config/index.js';

test('a DSN loses its password in every form, also when its quoting is broken', () => {
  const cases: [string, string][] = [
    ['postgres://u:hunter2@h:5432/db', 'postgres://u:REDACTED@h:5432/db'],
    ['postgres://u@h/db?password=hunter2&sslmode=require', 'postgres://u@h/db?password=REDACTED&sslmode=require'],
    ['postgresql://u@h/db?PASSWORD=hunter2', 'postgresql://u@h/db?PASSWORD=REDACTED'],
    ["host=h password='hun ter2' user=u", 'host=h password=REDACTED user=u'],
    ["host=h password='hunter2", 'host=h password=REDACTED'],
    ["host=h password=abc'hunter2 user=u", 'host=h password=REDACTED user=u'],
    ['host=h password=hunter2', 'host=h password=REDACTED'],
  ];
  for (const [dsn, shown] of cases) {
    assert.equal(redactDsn(dsn), shown, dsn);
    assert.ok(!redactDsn(dsn).includes('hunter2'), dsn);
  }
});

test('settings show a dsn without its password (legacy /settings, print-config)', () => {
  const shown = redact({ checkbridge: { store: { dsn: 'postgres://cb:hunter2@db/cb' } } }) as { checkbridge: { store: { dsn: string } } };
  assert.equal(shown.checkbridge.store.dsn, 'postgres://cb:REDACTED@db/cb');
});
