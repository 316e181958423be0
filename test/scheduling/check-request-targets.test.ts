// CheckRequestTargets: kinds of subscribers registered and removed, the one round-robin order over them, and where requests go; checkRunOf names a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckRequestTargets, byNameThenKind, checkRunOf, type TargetKind, type V2CheckRequest } from '../../src/scheduling/check-request-targets.js';

const request = (config: Record<string, unknown>): V2CheckRequest => ({ config, hooks: [], assets: [], issued: 1_700_000_000 });

/** A kind of subscriber with fixed members per namespace/subscription, recording what it was sent. */
function kind(name: string, members: Record<string, string[]>, sent: string[]): TargetKind {
  return {
    kind: name,
    members: (namespace, subscription) => members[`${namespace}/${subscription}`] ?? [],
    broadcast: (namespace, subscription, r) => void sent.push(`${name} *${namespace}/${subscription} ${checkRunOf(r)}`),
    send: (namespace, member, r) => void sent.push(`${name} ${namespace}/${member} ${checkRunOf(r)}`),
  };
}

test('a run is named by its check, and by its proxy entity when it has one; a flat config names itself', () => {
  assert.equal(checkRunOf(request({ metadata: { name: 'disk' } })), 'disk');
  assert.equal(checkRunOf(request({ metadata: { name: 'ping' }, proxy_entity_name: 'sw-1' })), 'ping/sw-1');
  assert.equal(checkRunOf(request({ name: 'flat' })), 'flat');
});

test('the ring order is by name, then by kind', () => {
  const ring = [
    { kind: 'legacy', name: 'b' },
    { kind: 'agent', name: 'b' },
    { kind: 'legacy', name: 'a' },
  ].sort(byNameThenKind);
  assert.deepEqual(
    ring.map((t) => `${t.kind}:${t.name}`),
    ['legacy:a', 'agent:b', 'legacy:b'],
  );
  assert.equal(byNameThenKind({ kind: 'x', name: 'n' }, { kind: 'x', name: 'n' }), 0);
});

test('members of every kind are listed in ring order; wanted narrows the kinds', () => {
  const targets = new CheckRequestTargets();
  targets.register(kind('legacy', { 'ops/web': ['web-2', 'web-1'] }, []));
  targets.register(kind('agent', { 'ops/web': ['web-1', 'web-0'], 'dev/web': ['dev-1'] }, []));
  assert.deepEqual(
    targets.members('ops', 'web').map((t) => `${t.kind}:${t.name}`),
    ['agent:web-0', 'agent:web-1', 'legacy:web-1', 'legacy:web-2'],
  );
  assert.deepEqual(
    targets.members('ops', 'web', (k) => k === 'legacy').map((t) => t.name),
    ['web-1', 'web-2'],
  );
  assert.deepEqual(targets.members('ops', 'db'), []);
});

test('a broadcast goes to every kind; a send only to the kind of its target, none for an unknown kind', () => {
  const sent: string[] = [];
  const targets = new CheckRequestTargets();
  targets.register(kind('legacy', {}, sent));
  targets.register(kind('agent', {}, sent));
  targets.broadcast('ops', 'web', request({ metadata: { name: 'disk' } }));
  targets.send('ops', { kind: 'agent', name: 'web-1' }, request({ metadata: { name: 'disk' } }));
  targets.send('ops', { kind: 'gone', name: 'web-1' }, request({ metadata: { name: 'disk' } }));
  assert.deepEqual(sent, ['legacy *ops/web disk', 'agent *ops/web disk', 'agent ops/web-1 disk']);
});

test('a kind registers once; unregistering removes it, and a stale unregister leaves a newer registration alone', () => {
  const targets = new CheckRequestTargets();
  const first = kind('agent', { 'ops/web': ['a-1'] }, []);
  const unregister = targets.register(first);
  assert.throws(() => targets.register(kind('agent', {}, [])), /a target kind named agent is already registered/);
  unregister();
  assert.deepEqual(targets.members('ops', 'web'), []);
  targets.register(kind('agent', { 'ops/web': ['a-2'] }, []));
  unregister();
  assert.deepEqual(
    targets.members('ops', 'web').map((t) => t.name),
    ['a-2'],
  );
});
