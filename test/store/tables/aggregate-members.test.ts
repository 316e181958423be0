// Aggregate membership on both engines: `client:check` members per aggregate, listed in order, removed, dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateStore } from '../../../src/store/index.js';
import { postgresStore, sqliteStore } from '../../helpers/both-engines.js';

function membership(store: StateStore): void {
  try {
    const aggregates = store.aggregates;
    assert.deepEqual(aggregates.names(), []);
    store.transaction(() => {
      aggregates.add('web', 'web-2', 'http');
      aggregates.add('web', 'web-1', 'http');
      aggregates.add('web', 'web-1', 'http');
      aggregates.add('db', 'db-1', 'mysql');
    });
    assert.deepEqual(aggregates.names(), ['db', 'web']);
    assert.deepEqual(aggregates.members('web'), ['web-1:http', 'web-2:http'], 'in order, each member once');
    assert.deepEqual(aggregates.members('none'), []);
    store.transaction(() => aggregates.remove('web', 'web-1:http'));
    assert.deepEqual(aggregates.members('web'), ['web-2:http']);
    assert.equal(
      store.transaction(() => aggregates.delete('web')),
      true,
    );
    assert.equal(
      store.transaction(() => aggregates.delete('web')),
      false,
      'gone already',
    );
    assert.deepEqual(aggregates.names(), ['db']);
  } finally {
    store.close();
  }
}

test('sqlite: aggregate members added once, listed in order, removed and dropped', () => membership(sqliteStore()));

test('postgres: the same membership in the shared store', async (t) => {
  const store = await postgresStore(t, 'aggregates');
  if (store) membership(store);
});
