// What a scheduled v2 request reads of the store: nothing while no resource was written since the last sync (the
// check and its HookConfigs as then read), the stored check and hooks again as soon as one was (an edit holds from the
// very next request, before any sync). Over a shared store each read is a round trip to PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { CheckRequestTargets, V2CheckScheduler, type V2CheckRequest } from '../../src/scheduling/index.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const T0 = Date.parse('2026-11-18T12:00:00.000Z');

test('a request reads neither its check nor its hooks while no resource was written, and reads both again after a write', (t) => {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'state.db'));
  t.after(() => (store.close(), removeTree(dir)));
  const reads: string[] = [];
  // The real store, its per-resource reads counted.
  const resources = new Proxy(store.resources, {
    get(target, key) {
      if (key === 'getResource') return (kind: string, ns: string, name: string) => (reads.push(`${kind}/${name}`), target.getResource(kind, ns, name));
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const sent: V2CheckRequest[] = [];
  const targets = new CheckRequestTargets();
  targets.register({ kind: 'recorded', members: () => [], broadcast: (_ns, _sub, request) => void sent.push(request), send: () => undefined });
  const clock = new ManualClock(T0);
  const scheduler = new V2CheckScheduler({ clock, resources, targets, logger: createLogger('silent') });
  store.resources.putResource('HookConfig', 'default', 'why', { metadata: { name: 'why', namespace: 'default' }, command: 'echo one' });
  store.resources.putResource('CheckConfig', 'default', 'tick', {
    metadata: { name: 'tick', namespace: 'default' },
    command: 'true',
    interval: 1,
    publish: true,
    subscriptions: ['linux'],
    check_hooks: [{ critical: ['why'] }],
  });
  scheduler.sync();

  clock.advanceBy(5_000);
  assert.ok(sent.length >= 4, `requests: ${sent.length}`);
  assert.deepEqual(
    sent.at(-1)!.hooks.map((h) => h.command),
    ['echo one'],
  );
  assert.deepEqual(reads, ['HookConfig/why'], 'the hook is read once, the check not at all');

  // An edit of the hook, no sync yet: the next request reads the check and its hook from the store.
  store.resources.putResource('HookConfig', 'default', 'why', { metadata: { name: 'why', namespace: 'default' }, command: 'echo two' });
  reads.length = 0;
  const before = sent.length;
  clock.advanceBy(1_000);
  assert.equal(sent.length, before + 1);
  assert.deepEqual(
    sent.at(-1)!.hooks.map((h) => h.command),
    ['echo two'],
  );
  assert.deepEqual(reads, ['CheckConfig/tick', 'HookConfig/why']);
  // After the sync, cached again.
  scheduler.sync();
  reads.length = 0;
  clock.advanceBy(3_000);
  assert.deepEqual(reads, ['HookConfig/why']);
  assert.deepEqual(
    sent.at(-1)!.hooks.map((h) => h.command),
    ['echo two'],
  );
  scheduler.stop();
});
