// What each legacy event writes beside itself in a real SQLite intake: the v2 event and entity, the namespace, the bridge outbox row, staged rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyToV2Writer } from '../../src/intake/legacy-to-v2.js';
import type { EventRow } from '../../src/store/index.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const NOW = Math.floor(Date.now() / 1000);
const result = (client: string, name: string, status: number, extra: Record<string, unknown> = {}) => ({
  client,
  check: { name, status, output: `${name} says ${status}`, executed: NOW, issued: NOW, ...extra },
});
type Json = Record<string, any>;

test('the legacy namespace exists as soon as the writer is made, before any event', (t) => {
  const { store } = sqliteIntake(t);
  assert.equal(store.resources.getResource('Namespace', '', 'ops'), null);
  legacyToV2Writer(store, () => 'ops', null);
  assert.deepEqual(store.resources.getResource('Namespace', '', 'ops'), { name: 'ops' });
});

test('each stored legacy event is mirrored as a v2 event with its entity in the legacy namespace, with the timed history', async (t) => {
  const { store, intake } = sqliteIntake(t);
  intake.withinTransaction(legacyToV2Writer(store, () => 'ops', null));
  await intake.submit(result('web-1', 'disk', 0, { executed: NOW - 10 }));
  await intake.submit(result('web-1', 'disk', 2));
  const event = store.resources.getEvent('ops', 'web-1', 'disk') as Json | null;
  assert.ok(event);
  assert.equal(event.metadata.namespace, 'ops');
  assert.equal(event.check.metadata.name, 'disk');
  assert.equal(event.check.status, 2);
  assert.equal(event.check.output, 'disk says 2');
  assert.deepEqual(event.check.history, [
    { status: 0, executed: NOW - 10 },
    { status: 2, executed: NOW },
  ]);
  const entity = store.resources.getEntity('ops', 'web-1') as Json | null;
  assert.equal(entity?.metadata.name, 'web-1');
  assert.deepEqual(event.entity, entity, 'the event carries the entity stored beside it');
  assert.deepEqual(store.outbox.heads(10), [], 'no bridge, no outbox row');
});

test('when the legacy namespace is renamed, later events go to the new one, which is created', async (t) => {
  const { store, intake } = sqliteIntake(t);
  let namespace = 'ops';
  intake.withinTransaction(legacyToV2Writer(store, () => namespace, null));
  await intake.submit(result('web-1', 'disk', 2));
  namespace = 'prod';
  await intake.submit(result('web-1', 'cpu', 2));
  assert.deepEqual(store.resources.getResource('Namespace', '', 'prod'), { name: 'prod' });
  assert.notEqual(store.resources.getEvent('ops', 'web-1', 'disk'), null);
  assert.equal(store.resources.getEvent('ops', 'web-1', 'cpu'), null);
  assert.notEqual(store.resources.getEvent('prod', 'web-1', 'cpu'), null);
});

test('with a bridge of the same namespace, the outbox gets the same event without history or sequence', async (t) => {
  const { store, intake } = sqliteIntake(t);
  intake.withinTransaction(legacyToV2Writer(store, () => 'ops', 'ops'));
  await intake.submit(result('web-1', 'disk', 2));
  const rows = store.outbox.heads(10);
  assert.equal(rows.length, 1);
  const row = rows[0]!;
  assert.deepEqual([row.namespace, row.entity, row.check], ['ops', 'web-1', 'disk']);
  const body = JSON.parse(row.body) as Json;
  assert.equal('sequence' in body, false);
  assert.equal('history' in body.check, false);
  const stored = store.resources.getEvent('ops', 'web-1', 'disk') as Json;
  const { sequence: _sequence, ...expected } = stored;
  assert.deepEqual(body, { ...expected, check: Object.fromEntries(Object.entries(stored.check).filter(([key]) => key !== 'history')) });
});

test('with a bridge of another namespace, the outbox event is translated into the bridge namespace', async (t) => {
  const { store, intake } = sqliteIntake(t);
  intake.withinTransaction(legacyToV2Writer(store, () => 'ops', 'remote'));
  await intake.submit(result('web-1', 'disk', 1));
  const [row] = store.outbox.heads(10);
  assert.equal(row?.namespace, 'remote');
  const body = JSON.parse(row!.body) as Json;
  assert.equal(body.metadata.namespace, 'remote');
  assert.equal(body.check.metadata.namespace, 'remote');
  assert.equal(body.entity.metadata.namespace, 'remote');
  assert.notEqual(store.resources.getEvent('ops', 'web-1', 'disk'), null, 'stored in the legacy namespace still');
  assert.equal(store.resources.getEvent('remote', 'web-1', 'disk'), null);
});

test("an agent's result goes to the agent's namespace and keeps the agent's stored entity", async (t) => {
  const { store, intake } = sqliteIntake(t);
  intake.withinTransaction(legacyToV2Writer(store, () => 'ops', null));
  store.putClient({ name: 'agent-1', entity_class: 'agent', namespace: 'edge', subscriptions: [] });
  const entity = { entity_class: 'agent', metadata: { name: 'agent-1', namespace: 'edge', labels: { kept: 'yes' } } };
  store.resources.putEntity('edge', 'agent-1', entity);
  await intake.submit({ ...result('agent-1', 'disk', 2), fromServer: true });
  const event = store.resources.getEvent('edge', 'agent-1', 'disk') as Json | null;
  assert.equal(event?.metadata.namespace, 'edge');
  assert.deepEqual(event?.entity, entity);
  assert.deepEqual(store.resources.getEntity('edge', 'agent-1'), entity, 'the stored entity is not overwritten');
  assert.equal(store.resources.getEvent('ops', 'agent-1', 'disk'), null);
});

test('with an event store, the event is staged for it instead of written to the embedded table; the entity is still stored', async (t) => {
  const { store, intake } = sqliteIntake(t);
  const staged: EventRow[] = [];
  intake.withinTransaction(legacyToV2Writer(store, () => 'ops', null, { stage: (rows) => staged.push(...rows) }));
  await intake.submit(result('web-1', 'disk', 2));
  assert.equal(store.resources.getEvent('ops', 'web-1', 'disk'), null);
  assert.equal(staged.length, 1);
  assert.deepEqual([staged[0]!.namespace, staged[0]!.entity, staged[0]!.check], ['ops', 'web-1', 'disk']);
  assert.equal((staged[0]!.event as Json).check.status, 2);
  assert.notEqual(store.resources.getEntity('ops', 'web-1'), null);
});
