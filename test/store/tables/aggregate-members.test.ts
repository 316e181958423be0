// Aggregate membership on both engines: `client:check` members per aggregate, listed in order, removed, dropped.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../../src/store/index.js';
import { postgresMissing, startPostgres } from '../../servers/postgres.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
const server = missing ? null : await startPostgres();
after(() => server?.stop());

function sqliteStore(): StateStore {
  const dir = makeTree({});
  after(() => removeTree(dir));
  return StateStore.open(join(dir, 'state', 'checkbridge.db'));
}

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
  if (!server) return void t.skip(missing!);
  await server.query('CREATE DATABASE aggregates');
  membership(StateStore.openPostgres(server.url('postgres', 'aggregates'), {}));
});
