// The intake opened with its event stores: each legacy event's v2 translation is written with it, and its bridge copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openIntake } from '../../src/intake/open-intake.js';
import { StateStore } from '../../src/store/index.js';
import { systemClock } from '../../src/schedule/clock.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

test('a legacy result committed through the opened intake: the v2 entity and event in the legacy namespace, and one outbox row', async (t) => {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { namespace: 'legacy' } });
  const { intake, events } = await openIntake(store, () => settings, { clock: systemClock, logger: capturedLogger().logger, bridgeNamespace: 'bridged' });
  t.after(async () => {
    await events.close();
    store.close();
    removeTree(dir);
  });
  assert.ok(store.resources.getResource('Namespace', '', 'legacy'), 'the legacy namespace exists from the start');
  await intake.submit({ client: 'web-1', check: { name: 'disk', output: 'full', status: 2, executed: 1 } });
  await intake.flushed();
  assert.equal(store.resources.getEntity('legacy', 'web-1')?.metadata?.name, 'web-1');
  const event = await events.get('legacy', 'web-1', 'disk');
  assert.equal(event?.check?.metadata?.name, 'disk');
  const rows = store.outbox.heads(10);
  assert.deepEqual(
    rows.map((row) => [row.namespace, row.entity, row.check]),
    [['bridged', 'web-1', 'disk']],
  );
});
