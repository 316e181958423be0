// The API's reads of v2 events and entities: on SQLite the tables' own reads, at once; on a shared PostgreSQL store
// awaited on its reader connection, the thread free while the round trip is in flight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventAwaited, listEntitiesAwaited, listEventsAwaited } from '../../../src/store/tables/event-reads.js';
import type { StateStore } from '../../../src/store/index.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';
import { storeBehindProxy } from '../../helpers/proxied-store.js';
import { postgresForFile } from '../../servers/postgres.js';
import type { Entity, Event } from '../../../src/v2/index.js';

const { server, missing, freshDsn } = await postgresForFile('reads');
const opaqueEvent = (fields: Record<string, unknown>) => fields as Event;
const opaqueEntity = (fields: Record<string, unknown>) => fields as Entity;

function seed(store: StateStore): void {
  store.resources.putEntity('default', 'web-1', opaqueEntity({ metadata: { name: 'web-1' } }));
  store.resources.putEvent('default', 'web-1', 'disk', opaqueEvent({ check: { metadata: { name: 'disk' } } }));
  store.resources.putEvent('default', 'web-1', 'cpu', opaqueEvent({ check: { metadata: { name: 'cpu' } } }));
  store.resources.putEvent('other', 'db-1', 'disk', opaqueEvent({ check: { metadata: { name: 'disk' } } }));
}

const names = (events: readonly Event[]) => events.map((e) => e.check?.metadata?.name);

test('sqlite: the awaited reads are the tables’ own', async (t) => {
  const store = sqliteStore(t);
  seed(store);
  assert.equal(store.resources.readRows, null);
  assert.deepEqual(names(await listEventsAwaited(store.resources, 'default')), ['cpu', 'disk']);
  assert.deepEqual(names(await listEventsAwaited(store.resources, 'default', 'web-1')), ['cpu', 'disk']);
  assert.equal((await listEventsAwaited(store.resources, null)).length, 3);
  assert.deepEqual(names([(await getEventAwaited(store.resources, 'default', 'web-1', 'disk'))!]), ['disk']);
  assert.equal(await getEventAwaited(store.resources, 'default', 'web-1', 'none'), null);
  assert.equal((await listEntitiesAwaited(store.resources, 'default')).length, 1);
});

test('postgres: the same answers, awaited on the reader while the thread runs other work', async (t) => {
  if (!server) return void t.skip(missing!);
  // 100 ms per round trip: a timer of 20 ms set as the read starts is due well before its answer.
  const { store } = await storeBehindProxy(t, await freshDsn(), 100);
  seed(store);
  assert.notEqual(store.resources.readRows, null);
  const order: string[] = [];
  const listed = listEventsAwaited(store.resources, 'default').then((events) => (order.push('listed'), events));
  setTimeout(() => order.push('timer'), 20);
  assert.deepEqual(names(await listed), ['cpu', 'disk']);
  // A read that blocked the thread would have answered inside the call, before the timer could run.
  assert.deepEqual(order, ['timer', 'listed']);
  assert.equal((await listEventsAwaited(store.resources, null)).length, 3);
  assert.deepEqual(names([(await getEventAwaited(store.resources, 'default', 'web-1', 'disk'))!]), ['disk']);
  assert.equal(await getEventAwaited(store.resources, 'default', 'web-1', 'none'), null);
  assert.equal((await listEntitiesAwaited(store.resources, 'default')).length, 1);
});
