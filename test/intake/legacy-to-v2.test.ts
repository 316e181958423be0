// What each legacy event writes beside itself in a real SQLite intake: the v2 event and entity, the namespace, the bridge outbox row, staged rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { kickOnLegacyEvents, legacyToV2Writer } from '../../src/intake/legacy-to-v2.js';
import { BridgeSender, bridgeConfigOf } from '../../src/bridge/index.js';
import { typedEvent } from '../../src/v2/index.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { until } from '../helpers/wait.js';
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

test("a committed legacy event kicks the bridge's sender, which sends the outbox row it wrote; a v2 event does not", async (t) => {
  const { store, intake } = sqliteIntake(t);
  intake.withinTransaction(legacyToV2Writer(store, () => 'default', 'default'));
  const received: string[] = [];
  const backend = createServer((request, response) => {
    received.push(String(request.url).split('/').slice(-2).join('/'));
    request.resume();
    request.on('end', () => response.writeHead(201).end());
  });
  backend.listen(0, '127.0.0.1');
  await once(backend, 'listening');
  t.after(() => backend.close());
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  const sender = new BridgeSender(store.outbox, bridgeConfigOf({ url, api_key: 'k' }, {}, {})!, capturedLogger().logger);
  t.after(() => sender.stop());
  sender.start();
  await sleep(50); // the start's own pump has found the outbox empty
  kickOnLegacyEvents(intake.topics, sender);

  await intake.submit(result('web-1', 'disk', 2));
  assert.ok(await until(() => received.length === 1, 5000), 'the legacy event was sent');
  assert.deepEqual(received, ['web-1/disk']);
  await sleep(100);
  // A row waiting without a kick, then a v2 event: it stays waiting.
  store.outbox.add('default', 'web-2', 'cpu', '{}', Date.now());
  await intake.submitEvent(
    'default',
    typedEvent({ entity: { metadata: { name: 'proxy-1' }, entity_class: 'proxy' }, check: { metadata: { name: 'c' }, status: 0 } }).value!,
  );
  await sleep(300);
  assert.deepEqual(received, ['web-1/disk'], 'a v2 event kicks nothing');
  await intake.submit(result('web-1', 'disk', 0));
  assert.ok(await until(() => received.length === 3, 5000), 'the next legacy event sends what waits too');
  assert.deepEqual(received.slice(1).sort(), ['web-1/disk', 'web-2/cpu']);
});

test('a namespace the writer created in a transaction rolled back is created again by the next event', (t) => {
  const { store } = sqliteIntake(t);
  let ns = 'ops';
  const write = legacyToV2Writer(store, () => ns, null);
  const processed = (client: string) =>
    ({
      event: { client: { name: client }, check: { name: 'disk', status: 0, output: '', executed: NOW, issued: NOW }, action: 'create', silenced_by: [] },
      history: [],
    }) as never;
  // A reload names another namespace; the first event written into it is rolled back with its transaction.
  ns = 'reloaded';
  assert.throws(() =>
    store.transaction(() => {
      write(processed('web-1'));
      throw new Error('the group commit failed');
    }),
  );
  assert.equal(store.resources.getResource('Namespace', '', 'reloaded'), null);
  store.transaction(() => write(processed('web-2')));
  assert.deepEqual(store.resources.getResource('Namespace', '', 'reloaded'), { name: 'reloaded' });
  assert.ok(store.resources.getEvent('reloaded', 'web-2', 'disk'));
});
