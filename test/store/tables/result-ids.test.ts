// The result ids handled lately, on both engines: a key is a client's check's id, so the same id from another client or
// on another check is no copy. On PostgreSQL, a store of schema 2 (ids alone, in `result_ids`) migrates to keyed claims
// and leaves the old table as it was, for servers of the older binary still running.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../../src/store/index.js';
import { postgresForFile } from '../../servers/postgres.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

const { server, missing, freshDsn } = await postgresForFile('ids');

function sqliteStore(): StateStore {
  const dir = makeTree({});
  after(() => removeTree(dir));
  return StateStore.open(join(dir, 'state', 'checkbridge.db'));
}

const key = (client: string, check: string, id: string) => ({ client, check, id });
const text = (k: ReturnType<typeof key>) => JSON.stringify([k.client, k.check, k.id]);

function claimsByClientAndCheck(store: StateStore): void {
  try {
    const ids = store.resultIds;
    const mine = key('victim', 'disk', 'id-1');
    assert.deepEqual(
      store.transaction(() => ids.claim([mine], 1_000)),
      new Set(),
      'first seen',
    );
    // The same id from another client, and on another check of the same client: new keys, no copies.
    const others = [key('attacker', 'disk', 'id-1'), key('victim', 'memory', 'id-1')];
    assert.deepEqual(
      store.transaction(() => ids.claim(others, 2_000)),
      new Set(),
    );
    // The same client's same check with the same id: a copy.
    assert.deepEqual(
      store.transaction(() => ids.claim([mine, key('victim', 'disk', 'id-2')], 3_000)),
      new Set([text(mine)]),
    );
    // Released (its result failed): handled again next time.
    store.transaction(() => ids.release([mine]));
    assert.deepEqual(
      store.transaction(() => ids.claim([mine], 4_000)),
      new Set(),
    );
    // Pruned by age: those seen before 2,500 ms go, the rest stay copies.
    assert.equal(
      store.transaction(() => ids.prune(2_500)),
      2,
    );
    assert.deepEqual(
      store.transaction(() => ids.claim([...others, mine], 5_000)),
      new Set([text(mine)]),
    );
  } finally {
    store.close();
  }
}

test('sqlite: result ids are claimed per client and check, released and pruned', () => claimsByClientAndCheck(sqliteStore()));

test('postgres: result ids are claimed per client and check, released and pruned', async (t) => {
  if (!server) return void t.skip(missing!);
  claimsByClientAndCheck(StateStore.openPostgres(await freshDsn(), {}));
});

test('postgres: a store of schema 2 migrates to keyed claims; the old id table is left to older servers', async (t) => {
  if (!server) return void t.skip(missing!);
  const dsn = await freshDsn();
  const database = new URL(dsn).pathname.slice(1);
  const fresh = StateStore.openPostgres(dsn, {});
  const latest = fresh.schemaVersion();
  fresh.close();
  // What a server of the previous binary left: schema 2 and its table of ids alone, with an id it handled.
  await server.query(
    `SET search_path TO checkbridge_store; DROP TABLE result_claims; DROP TABLE rehearsal_state, rehearsal_checks, rehearsal_divergences;
     UPDATE store_schema SET version = 2;
     CREATE TABLE result_ids (id TEXT COLLATE "C" PRIMARY KEY, seen BIGINT NOT NULL); INSERT INTO result_ids VALUES ('old-id', 1)`,
    database,
  );
  const store = StateStore.openPostgres(dsn, {});
  try {
    assert.ok(latest > 2);
    assert.equal(store.openedAtVersion, 2);
    assert.equal(store.schemaVersion(), latest);
    assert.deepEqual(
      store.transaction(() => store.resultIds.claim([key('c', 'k', 'old-id')], 2)),
      new Set(),
    );
  } finally {
    store.close();
  }
  const old = await server.query('SELECT id FROM checkbridge_store.result_ids', database);
  assert.deepEqual(
    old.rows.map((row) => row.id),
    ['old-id'],
  );
});
