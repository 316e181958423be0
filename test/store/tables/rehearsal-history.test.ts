// The rehearsal's history on both engines: counts per check, the first divergences kept (bounded), reset on a new configuration.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore, FIRST_PER_CHECK, type RehearsedEvent } from '../../../src/store/index.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { postgresMissing, startPostgres } from '../../servers/postgres.js';

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
const server = missing ? null : await startPostgres();
after(() => server?.stop());

function exercise(store: StateStore): void {
  assert.deepEqual(store.rehearsal.report(), { configuration: null, since: null, skipped: 0, checks: [] });
  assert.equal(store.rehearsal.begin('conf-a', 1000), true, 'a first configuration starts the history');
  const diverging = (i: number): RehearsedEvent => ({ check: 'disk', at: 10 + i, divergence: { n: i, kinds: ['filter'] } });
  store.rehearsal.record([{ check: 'cpu', at: 5, divergence: null }, ...Array.from({ length: FIRST_PER_CHECK - 2 }, (_, i) => diverging(i))]);
  store.rehearsal.record([{ check: 'cpu', at: 6, divergence: null }, diverging(100), diverging(101), diverging(102), diverging(103)], 3);
  store.rehearsal.record([], 2);
  assert.equal(store.rehearsal.begin('conf-a', 2000), false, 'the same configuration keeps it');
  const report = store.rehearsal.report();
  assert.equal(report.configuration, 'conf-a');
  assert.equal(report.since, 1000);
  assert.equal(report.skipped, 5, 'events not rehearsed are counted');
  assert.deepEqual(
    report.checks.map(({ first, ...counts }) => ({ ...counts, kept: first.length })),
    [
      { check: 'cpu', seen: 2, agreed: 2, diverged: 0, last_at: 6, kept: 0 },
      { check: 'disk', seen: FIRST_PER_CHECK + 2, agreed: 0, diverged: FIRST_PER_CHECK + 2, last_at: 113, kept: FIRST_PER_CHECK },
    ],
  );
  assert.deepEqual(
    report.checks[1]!.first.map((d) => d.n),
    [...Array.from({ length: FIRST_PER_CHECK - 2 }, (_, i) => i), 100, 101],
    'the first ones, in order',
  );
  assert.equal(store.rehearsal.begin('conf-b', 3000), true, 'another configuration empties it');
  assert.deepEqual(store.rehearsal.report(), { configuration: 'conf-b', since: 3000, skipped: 0, checks: [] });
}

test('sqlite: the rehearsal history counts, keeps the first divergences and resets on a new configuration', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  const store = StateStore.open(join(dir, 'state', 'checkbridge.db'));
  try {
    exercise(store);
  } finally {
    store.close();
  }
});

test('postgres: the same history in the shared store', async (t) => {
  if (!server) return void t.skip(missing!);
  await server.query('CREATE DATABASE rehearsal_history');
  const store = StateStore.openPostgres(server.url('postgres', 'rehearsal_history'), {});
  try {
    exercise(store);
  } finally {
    store.close();
  }
});
