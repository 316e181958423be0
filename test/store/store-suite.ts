// The store's API as one suite, run against each engine (test/store/sqlite/sqlite-state-store.test.ts, test/store/postgres/postgres-state-store.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StateStore } from '../../src/store/index.js';
import { CheckbridgeError } from '../../src/errors.js';

export interface StoreBackend {
  /** A new, empty location (a file path or a DSN of its own database). */
  fresh(): Promise<string>;
  open(location: string): StateStore;
  /** Marks the location's schema as written by a newer checkbridge. */
  makeNewer(location: string): Promise<void>;
}

export function storeSuite(engine: string, given: StoreBackend | { skip: string }): void {
  const backend = 'skip' in given ? null : given;
  const it = (name: string, body: (store: StateStore, location: string) => void | Promise<void>) =>
    test(`${engine}: ${name}`, async (t) => {
      if (!backend) return void t.skip((given as { skip: string }).skip);
      const location = await backend.fresh();
      const store = backend.open(location);
      try {
        await body(store, location);
      } finally {
        store.close();
      }
    });

  it('clients, results with history, and events: stored, listed in key order, deleted', (store) => {
    store.putClient({ name: 'b', address: 'x' });
    store.putClient({ name: 'B', address: 'y' });
    store.putClient({ name: 'a', address: 'z' });
    assert.deepEqual(store.getClient('b'), { name: 'b', address: 'x' });
    assert.equal(store.getClient('nope'), null);
    // Bytewise order, as SQLite sorts: upper case first.
    assert.deepEqual(
      store.listClients().map((c) => c.name),
      ['B', 'a', 'b'],
    );
    assert.equal(store.countEntities(100, 'default'), 3);
    store.resources.putEntity('default', 'a', { metadata: { name: 'a' } });
    store.resources.putEntity('default', 'v2only', { metadata: { name: 'v2only' } });
    assert.equal(store.countEntities(100, 'default'), 4);
    // As the lists show them: a name in two namespaces is two entities; an invalidated client is listed nowhere.
    store.resources.putEntity('team', 'a', { metadata: { name: 'a' } });
    store.putClient({ name: 'gone', signature: 'invalidated', invalidated: true, invalidated_until: null });
    assert.equal(store.countEntities(100, 'default'), 5);
    assert.equal(store.countEntities(100, 'team'), 5, 'clients listed in team, where client a is entity a');
    store.resources.deleteEntity('team', 'a');
    store.deleteClient('gone');
    // Counted only as far as asked: the entity limit needs no more.
    assert.equal(store.countEntities(2, 'default'), 2);
    assert.equal(store.hasV2Entity('v2only', 'default'), true);
    assert.equal(store.hasV2Entity('v2only', 'team'), false);
    assert.equal(store.hasV2Entity('b', 'default'), false);

    store.putResult('a', { name: 'disk', status: 1 }, [{ status: 1, executed: 10 }], null);
    store.putResult('a', { name: 'cpu', status: 0 }, [{ status: 0, executed: 11 }], 1700000000.5);
    store.putResult('b', { name: 'disk', status: 2 }, [{ status: 2, executed: 12 }], 1700000001);
    assert.deepEqual(store.getResult('a', 'cpu'), {
      client: 'a',
      check: { name: 'cpu', status: 0 },
      history: [{ status: 0, executed: 11 }],
      lastOk: 1700000000.5,
    });
    assert.deepEqual(
      store.listResults().map((r) => `${r.client}/${r.check.name}`),
      ['a/cpu', 'a/disk', 'b/disk'],
    );
    assert.deepEqual(
      store.listResults('a').map((r) => r.check.name),
      ['cpu', 'disk'],
    );
    assert.equal(typeof store.listResults('b')[0]!.lastOk, 'number');
    assert.equal(store.deleteResult('a', 'cpu'), true);
    assert.equal(store.deleteResult('a', 'cpu'), false);
    store.deleteResultsOfCheck('disk');
    assert.deepEqual(store.listResults(), []);

    store.putEvent('a', 'disk', { id: 'e1' });
    store.putEvent('a', 'disk', { id: 'e2' });
    store.putEvent('b', 'disk', { id: 'e3' });
    assert.deepEqual(store.getEvent('a', 'disk'), { id: 'e2' });
    assert.deepEqual(store.listEvents(), [{ id: 'e2' }, { id: 'e3' }]);
    assert.deepEqual(store.listEvents('b'), [{ id: 'e3' }]);
    assert.equal(store.deleteEvent('b', 'disk'), true);
    assert.equal(store.deleteEvent('b', 'disk'), false);

    store.putResult('a', { name: 'disk', status: 1 }, [], null);
    store.deleteClient('a', { until: 99 });
    assert.deepEqual(store.getClient('a'), { name: 'a', signature: 'invalidated', invalidated: true, invalidated_until: 99 });
    assert.deepEqual([store.listResults('a'), store.listEvents('a')], [[], []]);
  });

  it('silences and stashes expire; aggregates keep members once', (store) => {
    store.silences.put('linux:*', { id: 'linux:*' }, null);
    store.silences.put('web:cpu', { id: 'web:cpu' }, 2_000);
    assert.deepEqual(store.silences.get('web:cpu', 1_999)?.value, { id: 'web:cpu' });
    assert.equal(store.silences.get('web:cpu', 2_000), null);
    assert.deepEqual(
      store.silences.list(1_000).map((s) => [s.key, s.expireAt]),
      [
        ['linux:*', null],
        ['web:cpu', 2_000],
      ],
    );
    assert.deepEqual(
      store.silences.list(3_000).map((s) => s.key),
      ['linux:*'],
    );
    assert.equal(store.silences.delete('linux:*', 3_000), true);
    assert.equal(store.silences.delete('linux:*', 3_000), false);
    store.stashes.put('/a/b', { x: 1 }, 5_000);
    assert.deepEqual(store.stashes.get('/a/b', 4_000)?.value, { x: 1 });
    assert.equal(typeof store.stashes.get('/a/b', 4_000)?.expireAt, 'number');

    store.aggregates.add('web', 'a', 'cpu');
    store.aggregates.add('web', 'a', 'cpu');
    store.aggregates.add('web', 'b', 'cpu');
    store.aggregates.add('db', 'c', 'io');
    assert.deepEqual(store.aggregates.names(), ['db', 'web']);
    assert.deepEqual(store.aggregates.members('web'), ['a:cpu', 'b:cpu']);
    store.aggregates.remove('web', 'a:cpu');
    assert.deepEqual(store.aggregates.members('web'), ['b:cpu']);
    assert.equal(store.aggregates.delete('web'), true);
    assert.equal(store.aggregates.delete('web'), false);
  });

  it('v2 tables: events, entities, resources, namespace references, users, API keys, sessions, secrets', (store) => {
    store.resources.putEvent('default', 'e', 'c', { sequence: 1 });
    store.resources.putEvent('default', 'e', 'c', { sequence: 2 });
    store.resources.putEvent('ops', 'e', 'c', { sequence: 3 });
    assert.deepEqual(store.resources.getEvent('default', 'e', 'c'), { sequence: 2 });
    assert.deepEqual(store.resources.listEvents(null), [{ sequence: 2 }, { sequence: 3 }]);
    assert.deepEqual(store.resources.listEvents('default', 'e'), [{ sequence: 2 }]);
    store.resources.putEntity('ops', 'e', { entity_class: 'entity' });
    store.resources.putResource('CheckConfig', 'ops', 'cpu', { name: 'cpu' });
    // The store is created with the default namespace.
    assert.deepEqual(store.resources.getResource('Namespace', '', 'default'), { name: 'default' });
    assert.deepEqual(store.resources.namespaceReferences('ops'), [
      { kind: 'Event', name: 'e/c' },
      { kind: 'Entity', name: 'e' },
      { kind: 'CheckConfig', name: 'cpu' },
    ]);
    assert.equal(store.resources.deleteResource('CheckConfig', 'ops', 'cpu'), true);
    assert.equal(store.resources.deleteEntity('ops', 'e'), true);
    assert.equal(store.resources.deleteEvent('ops', 'e', 'c'), true);

    assert.equal(store.resources.userCount(), 0);
    store.resources.putUser('admin', { username: 'admin' });
    store.resources.putUser('admin', { username: 'admin', disabled: false });
    assert.equal(store.resources.userCount(), 1);
    assert.deepEqual(store.resources.listUsers(), [{ username: 'admin', disabled: false }]);
    const key = { keyHash: 'h1', username: 'admin', createdBy: 'admin', createdAt: 1700000000, hint: 'abcd1234' };
    store.resources.putApiKey(key);
    assert.deepEqual(store.resources.getApiKey('h1'), key);
    assert.deepEqual(store.resources.listApiKeys(), [key]);
    assert.equal(store.resources.deleteApiKey('h1'), true);
    assert.equal(store.resources.getApiKey('h1'), null);
    store.resources.putSession('s1', 'admin', 'r1', 2_000, 1_000);
    store.resources.putSession('s2', 'admin', 'r2', 500, 400);
    assert.deepEqual(store.resources.getSession('s1'), { id: 's1', username: 'admin', refreshId: 'r1', expiresAt: 2_000 });
    store.resources.putSession('s3', 'other', 'r3', 3_000, 1_000);
    assert.equal(store.resources.getSession('s2'), null, 'expired sessions are purged on the next write');
    assert.equal(store.resources.deleteUserSessions('admin'), 1);
    assert.equal(
      store.resources.secret('jwt', () => 'first'),
      'first',
    );
    assert.equal(
      store.resources.secret('jwt', () => 'second'),
      'first',
    );
  });

  it('outbox: increasing sequence numbers, heads per entity/check, delivery and dead letters counted', (store) => {
    const a = store.outbox.add('default', 'e', 'c', '{"n":1}', 1_000);
    const b = store.outbox.add('default', 'e', 'c', '{"n":2}', 2_000);
    const c = store.outbox.add('default', 'f', 'c', '{"n":3}', 3_000);
    assert.ok(a < b && b < c && typeof a === 'number');
    assert.deepEqual(
      store.outbox.heads(10).map((r) => [r.seq, r.entity, r.check, r.enqueuedAt]),
      [
        [a, 'e', 'c', 1_000],
        [c, 'f', 'c', 3_000],
      ],
    );
    assert.deepEqual(store.outbox.stats(5_000), { depth: 3, oldest_age_s: 4, delivered: 0, dead_lettered: 0 });
    store.outbox.delivered(a);
    const [head] = store.outbox.heads(1);
    store.outbox.deadLetter(head!, 400, 'bad request', 6_000);
    assert.deepEqual(store.outbox.deadLetters(), [
      { seq: b, namespace: 'default', entity: 'e', check: 'c', body: '{"n":2}', status: 400, message: 'bad request', failedAt: 6_000 },
    ]);
    assert.deepEqual(store.outbox.stats(6_000), { depth: 1, oldest_age_s: 3, delivered: 1, dead_lettered: 1 });
  });

  it('transactions: a failed savepoint undoes only itself, a failed transaction everything; errors keep their message', (store) => {
    store.transaction(() => {
      store.putClient({ name: 'kept' });
      assert.equal(store.db.inTransaction, true);
      assert.throws(
        () =>
          store.transaction(() => {
            store.putClient({ name: 'undone' });
            store.resources.putApiKey({ keyHash: 'dup', username: 'u', createdBy: 'u', createdAt: 1, hint: 'h' });
            store.resources.putApiKey({ keyHash: 'dup', username: 'u', createdBy: 'u', createdAt: 1, hint: 'h' });
          }),
        (error: unknown) => /UNIQUE|unique|duplicate/.test((error as Error).message) && typeof (error as { code?: unknown }).code === 'string',
      );
      // The transaction goes on after the savepoint's failure.
      store.putClient({ name: 'after' });
    });
    assert.equal(store.db.inTransaction, false);
    assert.deepEqual(
      store.listClients().map((c) => c.name),
      ['after', 'kept'],
    );
    assert.equal(store.resources.getApiKey('dup'), null);
    assert.throws(
      () =>
        store.transaction(() => {
          store.putClient({ name: 'gone' });
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(store.getClient('gone'), null);
    assert.equal(store.db.inTransaction, false);
    assert.equal(
      store.transaction(() => 42),
      42,
    );
  });

  it('what one store writes, another opened on the same location reads; a newer schema is refused', async (store, location) => {
    store.putClient({ name: 'shared' });
    store.putResult('shared', { name: 'c', status: 0 }, [{ status: 0, executed: 5 }], 5);
    const other = backend!.open(location);
    try {
      assert.deepEqual(other.getClient('shared'), { name: 'shared' });
      assert.deepEqual(other.getResult('shared', 'c')?.history, [{ status: 0, executed: 5 }]);
      assert.equal(other.schemaVersion(), store.schemaVersion());
      assert.equal(other.openedAtVersion, other.schemaVersion(), 'opened at the current version: nothing to migrate');
    } finally {
      other.close();
    }
    store.close();
    await backend!.makeNewer(location);
    assert.throws(
      () => backend!.open(location),
      (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_STORE_NEWER',
    );
  });
}
