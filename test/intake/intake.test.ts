// The intake takes v2 events and results into one group commit, the same listeners and the same flush at stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { Intake, isV2Event, type IntakeEvent } from '../../src/intake/intake.js';
import { systemClock } from '../../src/schedule/clock.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { typedEvent } from '../../src/v2/index.js';

// Typed as a door hands it to the intake.
const typed = (body: unknown) => typedEvent(body).value!;
const event = (entity: string, status: number) => ({
  entity: { entity_class: 'proxy', metadata: { name: entity } },
  check: { metadata: { name: 'c' }, status, output: `status ${status}` },
});

test('intake: a v2 event and a result submitted together commit in one group, both reach the listeners, a replay does not', async (t) => {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  store.resources.putResource('Namespace', '', 'default', { name: 'default' });
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(store, () => settings, systemClock, capturedLogger().logger);
  const seen: IntakeEvent[] = [];
  intake.onEvent((emitted) => seen.push(emitted));

  const [answer] = await Promise.all([
    intake.submitEvent('default', typed(event('proxy-1', 2)), 'admin'),
    intake.submit({ client: 'door', check: { name: 'legacy', output: 'x', status: 1, issued: 1, executed: 1 } }),
  ]);
  assert.ok(answer.ok);
  assert.equal(answer.event.metadata?.created_by, 'admin');
  assert.equal((store.resources.getEvent('default', 'proxy-1', 'c') as { check: { output: string } } | null)?.check.output, 'status 2');
  assert.deepEqual(seen.map((e) => (isV2Event(e) ? `v2 ${e.namespace}/${e.event.entity?.metadata?.name}` : `result ${e.event.check.name}`)).sort(), [
    'result legacy',
    'v2 default/proxy-1',
  ]);

  // The sender's replay of the same event (same id and sequence) changes nothing and goes nowhere.
  const replay = await intake.submitEvent('default', typed({ ...event('proxy-1', 2), id: answer.event.id, sequence: 1 }));
  assert.ok(replay.ok);
  const again = await intake.submitEvent('default', typed({ ...event('proxy-1', 2), id: answer.event.id, sequence: 1 }));
  assert.deepEqual([again.ok && again.replay, seen.length], [true, 3]);
});

test('intake: a v2 event submitted just before the stop is committed by flushed(); refused ones are answered, not thrown', async (t) => {
  const dir = makeTree({});
  const path = join(dir, 'checkbridge.db');
  const store = StateStore.open(path);
  t.after(() => removeTree(dir));
  store.resources.putResource('Namespace', '', 'default', { name: 'default' });
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] } });
  const intake = new Intake(store, () => settings, systemClock, capturedLogger().logger);
  const answers = [intake.submitEvent('default', typed(event('late', 0))), intake.submitEvent('default', typed({ check: { metadata: { name: 'c' } } }))];
  await intake.flushed();
  store.close();
  const [late, invalid] = await Promise.all(answers);
  assert.ok(late.ok);
  assert.deepEqual([invalid.ok, !invalid.ok && /entity/.test(invalid.message)], [false, true]);
  const reopened = StateStore.open(path);
  t.after(() => reopened.close());
  assert.equal((reopened.resources.getEvent('default', 'late', 'c') as { check: { status: number } } | null)?.check.status, 0);
});
