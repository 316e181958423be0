// The legacy process_check_result on a real SQLite store: which results are refused, what client, result, history and event each one leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../src/store/index.js';
import { processResult, resultKey, withoutExpiredTombstone } from '../../src/intake/processor.js';
import type { CheckResult } from '../../src/execute/index.js';
import { HISTORY_LENGTH } from '../../src/legacy/index.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteStore as openStore } from '../helpers/sqlite-store.js';

const NOW = 1_700_000_000;
const NOW_MS = NOW * 1000;
const settings = settingsOf({
  checkbridge: { entity_limit: 0, namespace: 'ops' },
  checks: {
    disk: { command: 'check-disk -w :::disk.warning|80:::', subscribers: ['web'], interval: 60, handlers: ['mail'] },
  },
});

const result = (client: string, name: string, status: number, check: Record<string, unknown> = {}, more: Partial<CheckResult> = {}): CheckResult => ({
  client,
  check: { name, status, output: `${name} ${status}`, executed: NOW, ...check },
  ...more,
});

/** Processes one result in a transaction, as the intake does. */
function process(store: StateStore, r: CheckResult, nowMs = NOW_MS, s = settings) {
  return store.transaction(() => processResult(store, s, r, nowMs));
}

test('a tombstone refuses until its expiry and is as if absent from then on; other clients pass unchanged', () => {
  const client = { name: 'a', signature: 'invalidated', invalidated: true, invalidated_until: NOW + 10 };
  assert.equal(withoutExpiredTombstone(client, NOW + 9), client);
  assert.equal(withoutExpiredTombstone(client, NOW + 10), null);
  const forever = { ...client, invalidated_until: null };
  assert.equal(withoutExpiredTombstone(forever, NOW + 1_000_000), forever);
  const plain = { name: 'b' };
  assert.equal(withoutExpiredTombstone(plain, NOW), plain);
  assert.equal(withoutExpiredTombstone(null, NOW), null);
});

test('a result is keyed by its source when it names one, else by its client', () => {
  assert.deepEqual(resultKey(result('web-1', 'disk', 0)), ['web-1', 'disk']);
  assert.deepEqual(resultKey(result('web-1', 'disk', 0, { source: 'router' })), ['router', 'disk']);
  assert.deepEqual(resultKey(result('web-1', 'disk', 0, { source: '' })), ['web-1', 'disk']);
});

test('a result from an unknown client registers it just in time', (t) => {
  const store = openStore(t);
  const outcome = process(store, result('web-1', 'cpu', 2));
  assert.equal(outcome.ok, true);
  const client = store.getClient('web-1');
  assert.equal(client?.address, 'unknown');
  assert.deepEqual(client?.subscriptions, ['client:web-1']);
  assert.equal(client?.keepalives, false);
  assert.equal(client?.timestamp, NOW);
  assert.equal('type' in (client ?? {}), false);
});

test('a result naming a source registers a proxy client and keeps who sent it as origin', (t) => {
  const store = openStore(t);
  const outcome = process(store, result('web-1', 'ping', 2, { source: 'router' }));
  assert.ok(outcome.ok);
  assert.equal(store.getClient('router')?.type, 'proxy');
  assert.equal(store.getClient('web-1'), null);
  assert.equal(outcome.processed.event.check.origin, 'web-1');
  assert.equal(store.getResult('router', 'ping')?.check.origin, 'web-1');
});

test('a result whose signature differs from the client one is refused, and nothing is stored', (t) => {
  const store = openStore(t);
  store.putClient({ name: 'web-1', signature: 'right' });
  const refused = process(store, result('web-1', 'cpu', 2, {}, { signature: 'wrong' }));
  assert.deepEqual(refused, { ok: false, reason: 'invalid check result signature' });
  assert.equal(store.getResult('web-1', 'cpu'), null);
  assert.equal(process(store, result('web-1', 'cpu', 2, {}, { signature: 'right' })).ok, true);
});

test('a deleted-and-invalidated client refuses results until the tombstone expires, then is registered anew', (t) => {
  const store = openStore(t);
  store.putClient({ name: 'web-1', signature: 'invalidated', invalidated: true, invalidated_until: NOW + 60 });
  assert.equal(process(store, result('web-1', 'cpu', 2)).ok, false);
  assert.equal(process(store, result('web-1', 'cpu', 2), (NOW + 60) * 1000).ok, true);
  assert.equal(store.getClient('web-1')?.invalidated, undefined);
});

test("a Sensu Go agent of another namespace takes only the server's own results", (t) => {
  const store = openStore(t);
  store.putClient({ name: 'agent-1', entity_class: 'agent', namespace: 'edge' });
  const refused = process(store, result('agent-1', 'cpu', 2));
  assert.equal(refused.ok, false);
  assert.match(!refused.ok ? refused.reason : '', /Sensu Go agent of namespace "edge"/);
  assert.equal(process(store, result('agent-1', 'cpu', 2, {}, { fromServer: true })).ok, true);
  store.putClient({ name: 'agent-2', entity_class: 'agent', namespace: 'ops' });
  assert.equal(process(store, result('agent-2', 'cpu', 2)).ok, true, 'an agent of the legacy namespace is any client');
});

test('a new client past the entity limit is refused with the limit code, and not registered', (t) => {
  const store = openStore(t);
  const limited = settingsOf({ checkbridge: { entity_limit: 1, namespace: 'ops' } });
  assert.equal(process(store, result('web-1', 'cpu', 2), NOW_MS, limited).ok, true);
  const refused = process(store, result('web-2', 'cpu', 2), NOW_MS, limited);
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.code, 'CB_ENTITY_LIMIT');
  assert.equal(store.getClient('web-2'), null);
  assert.equal(process(store, result('web-1', 'mem', 2), NOW_MS, limited).ok, true, 'a known client still reports');
});

test('a result of a defined check takes the definition under its own fields; a standalone one does not', (t) => {
  const store = openStore(t);
  const defined = process(store, result('web-1', 'disk', 1, { interval: 30 }));
  assert.ok(defined.ok);
  assert.deepEqual(defined.processed.event.check.handlers, ['mail']);
  assert.equal(defined.processed.event.check.interval, 30, 'the result wins over the definition');
  assert.equal(defined.processed.event.check.type, 'standard');
  const standalone = process(store, result('web-2', 'disk', 1, { standalone: true }));
  assert.ok(standalone.ok);
  assert.equal(standalone.processed.event.check.handlers, undefined);
});

test('a proxy result of a defined check stores the defined command, not the one with substituted attributes', (t) => {
  const store = openStore(t);
  const outcome = process(store, result('web-1', 'disk', 1, { source: 'nas', command: 'check-disk -w 95' }));
  assert.ok(outcome.ok);
  assert.equal(store.getResult('nas', 'disk')?.check.command, 'check-disk -w :::disk.warning|80:::');
  const direct = process(store, result('web-1', 'disk', 1, { command: 'check-disk -w 95' }));
  assert.ok(direct.ok);
  assert.equal(store.getResult('web-1', 'disk')?.check.command, 'check-disk -w 95', 'a non-proxy client keeps its own');
});

test('a result joins the aggregates its check names, under its key', (t) => {
  const store = openStore(t);
  process(store, result('web-1', 'cpu', 0, { aggregates: ['web', 'all'] }));
  process(store, result('web-1', 'ping', 0, { aggregate: true, source: 'router' }));
  assert.deepEqual(store.aggregates.members('web'), ['web-1:cpu']);
  assert.deepEqual(store.aggregates.members('all'), ['web-1:cpu']);
  assert.deepEqual(store.aggregates.members('ping'), ['router:ping']);
});

test('the history keeps the last entries with execution times, and the last OK time follows OK results', (t) => {
  const store = openStore(t);
  for (let i = 0; i < HISTORY_LENGTH + 3; i++) process(store, result('web-1', 'cpu', i % 3 === 0 ? 0 : 2, { executed: NOW + i }));
  const stored = store.getResult('web-1', 'cpu');
  assert.equal(stored?.history.length, HISTORY_LENGTH);
  assert.deepEqual(stored?.history.at(-1), { status: 2, executed: NOW + HISTORY_LENGTH + 2 });
  assert.deepEqual(stored?.history[0], { status: 0, executed: NOW + 3 }, 'the three oldest are dropped');
  assert.equal(stored?.lastOk, NOW + HISTORY_LENGTH, 'the last OK was the one executed at i = 21');
});

test('a metric result is stored truncated while its event keeps the whole output', (t) => {
  const store = openStore(t);
  const output = 'cpu.user 5 1\ncpu.system 3 1\n';
  const outcome = process(store, result('web-1', 'metrics', 0, { type: 'metric', output }));
  assert.ok(outcome.ok);
  assert.equal(store.getResult('web-1', 'metrics')?.check.output, 'cpu.user 5 1\n...');
  assert.equal(outcome.processed.event.check.output, output);
  assert.equal(outcome.processed.handle, true, 'a metric is handled even when OK');
});

test('a failing result stores an event and is handled; its OK successor removes it and is handled; a plain OK is neither', (t) => {
  const store = openStore(t);
  const first = process(store, result('web-1', 'cpu', 0));
  assert.ok(first.ok);
  assert.equal(first.processed.handle, false);
  assert.equal(store.getEvent('web-1', 'cpu'), null);
  const failing = process(store, result('web-1', 'cpu', 2));
  assert.ok(failing.ok);
  assert.equal(failing.processed.handle, true);
  assert.equal(store.getEvent('web-1', 'cpu')?.action, 'create');
  const resolved = process(store, result('web-1', 'cpu', 0));
  assert.ok(resolved.ok);
  assert.equal(resolved.processed.event.action, 'resolve');
  assert.equal(resolved.processed.handle, true);
  assert.equal(resolved.processed.event.id, failing.processed.event.id, 'the resolve carries the event id');
  assert.equal(store.getEvent('web-1', 'cpu'), null);
});
