import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { Intake } from '../../src/intake/intake.js';
import { systemClock } from '../../src/schedule/clock.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

test('group commit: a result that throws fails alone; its neighbours in the same transaction commit and are answered', async (t) => {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  const settings = settingsOf({ client: { name: 'adv', address: '127.0.0.1', subscriptions: [] } });
  const intake = new Intake(store, () => settings, systemClock, capturedLogger().logger);
  // A failure after the result was written (here: an in-transaction writer), as any unexpected throw would be.
  intake.withinTransaction((processed) => {
    if (processed.event.check.name === 'poison') throw new Error('writer failed');
  });
  const handled: string[] = [];
  intake.onEvent((processed) => handled.push(String((processed.event.check as { name?: string } | null | undefined)?.name)));

  const names = Array.from({ length: 20 }, (_, i) => `good-${i}`);
  names.splice(10, 0, 'poison');
  // Submitted in one turn: one flush, one transaction.
  const outcomes = await Promise.allSettled(
    names.map((name) => intake.submit({ client: 'adv', check: { name, output: name, status: 1, executed: 1, issued: 1 } })),
  );

  const rejected = names.filter((_, i) => outcomes[i]!.status === 'rejected');
  assert.deepEqual(rejected, ['poison']);
  assert.equal((outcomes[10] as PromiseRejectedResult).reason.message, 'writer failed');
  for (const name of names.filter((n) => n !== 'poison')) assert.equal(store.getResult('adv', name)?.check.output, name, name);
  assert.equal(store.getResult('adv', 'poison'), null, 'the failed result is rolled back to its savepoint');
  assert.equal(store.getEvent('adv', 'poison'), null);
  assert.deepEqual(handled.sort(), names.filter((n) => n !== 'poison').sort());
});
