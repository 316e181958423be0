// The legacy clients registered now, read from a real store: one deleted with invalidation is left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveClients } from '../../src/store/live-clients.js';
import { sqliteStore } from '../helpers/sqlite-store.js';

test('the registered clients, without the tombstone of one deleted with invalidation', (t) => {
  const store = sqliteStore(t);
  for (const name of ['web-1', 'web-2', 'web-3']) store.putClient({ name, subscriptions: [] });
  store.deleteClient('web-2', { until: null });
  store.deleteClient('web-3');
  assert.ok(
    store.listClients().some((client) => client.name === 'web-2'),
    'the tombstone is still listed by the store',
  );
  assert.deepEqual(
    liveClients(store).map((client) => client.name),
    ['web-1'],
  );
});
