// Legacy aggregates: which names a result joins, members read from a real SQLite store, and the summaries built from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateMembers,
  aggregateNames,
  groupBy,
  memberNames,
  resultsOfSeverity,
  severityOf,
  summarize,
  type AggregateMember,
} from '../../src/intake/aggregates.js';
import { sqliteStore as openStore } from '../helpers/sqlite-store.js';

/** A member with a result of this status, output and execution time. */
const member = (client: string, check: string, status: unknown, output?: string, executed?: unknown): AggregateMember => ({
  client,
  check,
  result: { client, check: { name: check, status, output, executed }, history: [], lastOk: null },
});
const gone = (client: string, check: string): AggregateMember => ({ client, check, result: null });

test('statuses 0, 1 and 2 are ok, warning and critical; anything else is unknown', () => {
  assert.equal(severityOf(0), 'ok');
  assert.equal(severityOf(1), 'warning');
  assert.equal(severityOf(2), 'critical');
  for (const other of [3, -1, 255, '0', '1', null, undefined, 1.5]) assert.equal(severityOf(other), 'unknown', String(other));
});

test('a check joins no aggregate unless it names one', () => {
  assert.deepEqual(aggregateNames({ name: 'disk' }), []);
  assert.deepEqual(aggregateNames({ name: 'disk', aggregate: false }), []);
  assert.deepEqual(aggregateNames({ name: 'disk', aggregate: '' }), []);
});

test('aggregate true joins the aggregate of the check name; a string aggregate joins that name', () => {
  assert.deepEqual(aggregateNames({ name: 'disk', aggregate: true }), ['disk']);
  assert.deepEqual(aggregateNames({ name: 'disk', aggregate: 'storage' }), ['storage']);
});

test('aggregates wins over aggregate, and names that are not non-empty strings are dropped', () => {
  assert.deepEqual(aggregateNames({ name: 'disk', aggregate: 'storage', aggregates: ['a', 'b'] }), ['a', 'b']);
  assert.deepEqual(aggregateNames({ name: 'disk', aggregates: ['a', '', 7, null, 'b'] }), ['a', 'b']);
  assert.deepEqual(aggregateNames({ name: 'disk', aggregates: 'single' }), ['single']);
});

test('members are split at the first colon: the check name keeps any later colons', (t) => {
  const store = openStore(t);
  store.aggregates.add('web', 'web-1', 'disk:root');
  store.aggregates.add('web', 'web-2', 'cpu');
  store.aggregates.add('other', 'db-1', 'cpu');
  assert.deepEqual(memberNames(store, 'web'), [
    { client: 'web-1', check: 'disk:root', member: 'web-1:disk:root' },
    { client: 'web-2', check: 'cpu', member: 'web-2:cpu' },
  ]);
  assert.deepEqual(memberNames(store, 'none'), []);
});

test('reading members gives their stored results, and a member whose result is gone leaves the aggregate', (t) => {
  const store = openStore(t);
  store.putResult('web-1', { name: 'cpu', status: 1, output: 'high' }, [{ status: 1, executed: 10 }], null);
  store.aggregates.add('web', 'web-1', 'cpu');
  store.aggregates.add('web', 'web-2', 'cpu');
  const members = aggregateMembers(store, 'web');
  assert.equal(members.length, 2, 'the missing member is still reported once');
  assert.equal(members[0]?.result?.check.output, 'high');
  assert.equal(members[1]?.client, 'web-2');
  assert.equal(members[1]?.result, null);
  assert.deepEqual(store.aggregates.members('web'), ['web-1:cpu']);
});

test('the summary counts results by severity and unique clients and checks, missing results included', () => {
  const members = [member('a', 'cpu', 0), member('a', 'disk', 2), member('b', 'cpu', 1), member('c', 'cpu', 9), gone('d', 'mem')];
  assert.deepEqual(summarize(members, null), {
    clients: 4,
    checks: 3,
    results: { ok: 1, warning: 1, critical: 1, unknown: 1, total: 4, stale: 0 },
  });
});

test('results executed before the oldest time count as stale only; results without an execution time are fresh', () => {
  const members = [member('a', 'cpu', 2, '', 99), member('b', 'cpu', 2, '', 100), member('c', 'cpu', 2, '', undefined)];
  assert.deepEqual(summarize(members, 100).results, { ok: 0, warning: 0, critical: 2, unknown: 0, total: 2, stale: 1 });
  assert.equal(summarize(members, null).results.stale, 0, 'no oldest time: nothing is stale');
});

test('results of a severity group clients by check and then by identical output', () => {
  const members = [
    member('a', 'cpu', 2, 'hot'),
    member('b', 'cpu', 2, 'hot'),
    member('c', 'cpu', 2, 'melting'),
    member('d', 'cpu', 1, 'warm'),
    member('e', 'disk', 2),
    gone('f', 'disk'),
  ];
  assert.deepEqual(resultsOfSeverity(members, 'critical', null), [
    {
      check: 'cpu',
      summary: [
        { output: 'hot', total: 2, clients: ['a', 'b'] },
        { output: 'melting', total: 1, clients: ['c'] },
      ],
    },
    { check: 'disk', summary: [{ output: '', total: 1, clients: ['e'] }] },
  ]);
  assert.deepEqual(resultsOfSeverity(members, 'ok', null), []);
});

test('stale results are left out of the results of a severity', () => {
  const members = [member('a', 'cpu', 2, 'hot', 50), member('b', 'cpu', 2, 'hot', 150)];
  assert.deepEqual(resultsOfSeverity(members, 'critical', 100), [{ check: 'cpu', summary: [{ output: 'hot', total: 1, clients: ['b'] }] }]);
});

test('members grouped by client list their checks, and by check list their clients', () => {
  const members = [member('a', 'cpu', 0), member('a', 'disk', 0), member('b', 'cpu', 0), gone('c', 'disk')];
  assert.deepEqual(groupBy(members, 'client'), [
    { name: 'a', checks: ['cpu', 'disk'] },
    { name: 'b', checks: ['cpu'] },
    { name: 'c', checks: ['disk'] },
  ]);
  assert.deepEqual(groupBy(members, 'check'), [
    { name: 'cpu', clients: ['a', 'b'] },
    { name: 'disk', clients: ['a', 'c'] },
  ]);
});
