import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openEvents, queryEvents, type EventRow } from '../../../src/api/dashboard/events.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;

const v2Event = (namespace: string, entity: string, check: string, status: number, extra: Record<string, unknown> = {}) => ({
  metadata: { namespace },
  entity: { metadata: { name: entity, namespace }, subscriptions: ['entity:' + entity, 'linux'] },
  check: { metadata: { name: check }, status, output: `${check} is ${status}`, executed: NOW - 5, ...extra },
  timestamp: NOW - 1,
});

test('open events: a legacy event as a row, silenced by the entries in force now (not one that begins later)', (t) => {
  const store = sqliteStore(t);
  store.putEvent('web-1', 'disk', {
    client: { name: 'web-1', subscriptions: ['web', 'client:web-1'] },
    check: { name: 'disk', status: 2, output: 'x'.repeat(3000), history: ['0', '2', '2'], subscribers: ['web', 'linux'] },
    occurrences: 2,
    last_ok: NOW - 60,
    timestamp: NOW - 10,
    action: 'create',
  });
  store.silences.put('web:*', { id: 'web:*', begin: null }, null);
  store.silences.put('*:disk', { id: '*:disk', begin: NOW + 3600 }, null);
  store.silences.put('linux:*', { id: 'linux:*' }, NOW_MS - 1);
  const [row, ...rest] = openEvents(store, 'default', NOW_MS);
  assert.equal(rest.length, 0);
  assert.deepEqual(
    { ...row!, output: row!.output.length },
    {
      source: 'legacy',
      namespace: 'default',
      client: 'web-1',
      check: 'disk',
      status: 2,
      output: 2000,
      occurrences: 2,
      history: [0, 2, 2],
      last_ok: NOW - 60,
      timestamp: NOW - 10,
      action: 'create',
      silenced: true,
      silenced_by: ['web:*'],
      subscriptions: ['web', 'linux', 'client:web-1'],
    },
  );
});

test('open events: failing v2 events are listed; OK ones and mirrors of legacy results and events are not', (t) => {
  const store = sqliteStore(t);
  // A legacy result (OK, no event) mirrored into the legacy namespace, and its mirror: the same story once.
  store.putResult('web-2', { name: 'cpu', status: 0, output: 'ok' }, [{ status: 0, executed: NOW }], NOW);
  store.resources.putEvent('default', 'web-2', 'cpu', v2Event('default', 'web-2', 'cpu', 2));
  // An agent's keepalive, a legacy event mirrored into the agent's own namespace.
  store.putEvent('agent-1', 'keepalive', {
    client: { name: 'agent-1', entity_class: 'agent', namespace: 'team-b', subscriptions: [] },
    check: { name: 'keepalive', status: 2, output: 'lost' },
  });
  store.resources.putEvent('team-b', 'agent-1', 'keepalive', v2Event('team-b', 'agent-1', 'keepalive', 2));
  store.resources.putEvent('team-b', 'agent-1', 'fine', v2Event('team-b', 'agent-1', 'fine', 0));
  store.resources.putEvent(
    'team-b',
    'agent-1',
    'flappy',
    v2Event('team-b', 'agent-1', 'flappy', 1, {
      state: 'flapping',
      occurrences: 4,
      last_ok: NOW - 30,
      history: [{ status: 0 }, { status: 1 }],
      silenced: ['linux:*'],
      subscriptions: ['linux'],
    }),
  );
  const rows = openEvents(store, 'default', NOW_MS);
  assert.deepEqual(
    rows.map((r) => `${r.source} ${r.namespace}/${r.client}/${r.check}`),
    ['legacy team-b/agent-1/keepalive', 'v2 team-b/agent-1/flappy'],
  );
  assert.deepEqual(rows[1], {
    source: 'v2',
    namespace: 'team-b',
    client: 'agent-1',
    check: 'flappy',
    status: 1,
    output: 'flappy is 1',
    occurrences: 4,
    history: [0, 1],
    last_ok: NOW - 30,
    timestamp: NOW - 1,
    action: 'flapping',
    silenced: true,
    silenced_by: ['linux:*'],
    subscriptions: ['linux', 'entity:agent-1'],
  });
});

const row = (client: string, check: string, status: number, timestamp: number, extra: Partial<EventRow> = {}): EventRow => ({
  source: 'legacy',
  namespace: 'default',
  client,
  check,
  status,
  output: `${check} on ${client}`,
  occurrences: 1,
  history: [status],
  last_ok: null,
  timestamp,
  action: 'create',
  silenced: false,
  silenced_by: [],
  subscriptions: [],
  ...extra,
});

const ROWS = [
  row('web-1', 'disk', 2, 100, { subscriptions: ['web'], output: 'disk FULL' }),
  row('web-2', 'disk', 1, 300, { subscriptions: ['web'], silenced: true }),
  row('db-1', 'load', 1, 200, { occurrences: 9 }),
  row('db-2', 'custom', 7, 50),
  row('db-3', 'weird', -1, 60),
];
const keys = (answer: ReturnType<typeof queryEvents>) => answer.items.map((r) => `${r.client}/${r.check}`);

test('query events: by default the worst first (unknown counts as 3), ties newest first, with counts per status', () => {
  const answer = queryEvents(ROWS, {});
  assert.deepEqual(keys(answer), ['db-3/weird', 'db-2/custom', 'web-1/disk', 'web-2/disk', 'db-1/load']);
  assert.deepEqual([answer.total, answer.offset, answer.limit, answer.counts], [5, 0, 50, { 0: 0, 1: 2, 2: 1, 3: 2 }]);
});

test('query events: status, client, check, subscription, silenced and free-text filters; counts ignore only the status filter', () => {
  const warning = queryEvents(ROWS, { status: '1' });
  assert.deepEqual([keys(warning), warning.total, warning.counts], [['web-2/disk', 'db-1/load'], 2, { 0: 0, 1: 2, 2: 1, 3: 2 }]);
  assert.deepEqual(keys(queryEvents(ROWS, { status: '3' })), ['db-3/weird', 'db-2/custom']);
  assert.deepEqual(keys(queryEvents(ROWS, { client: 'WEB' })), ['web-1/disk', 'web-2/disk']);
  assert.deepEqual(keys(queryEvents(ROWS, { check: 'loa' })), ['db-1/load']);
  assert.deepEqual(keys(queryEvents(ROWS, { subscription: 'web' })), ['web-1/disk', 'web-2/disk']);
  assert.deepEqual(keys(queryEvents(ROWS, { subscription: 'we' })), [], 'a subscription matches whole');
  assert.deepEqual(keys(queryEvents(ROWS, { silenced: 'true' })), ['web-2/disk']);
  assert.equal(queryEvents(ROWS, { silenced: 'false' }).total, 4);
  assert.deepEqual(keys(queryEvents(ROWS, { q: 'full' })), ['web-1/disk']);
  assert.deepEqual(queryEvents(ROWS, { client: 'web', status: '2' }).counts, { 0: 0, 1: 1, 2: 1, 3: 0 });
});

test('query events: sorts by a named key in either order; an unknown key sorts by status', () => {
  assert.deepEqual(keys(queryEvents(ROWS, { sort: 'client', order: 'asc' })), ['db-1/load', 'db-2/custom', 'db-3/weird', 'web-1/disk', 'web-2/disk']);
  assert.deepEqual(keys(queryEvents(ROWS, { sort: 'timestamp' })), ['web-2/disk', 'db-1/load', 'web-1/disk', 'db-3/weird', 'db-2/custom']);
  assert.deepEqual(keys(queryEvents(ROWS, { sort: 'occurrences' })).slice(0, 1), ['db-1/load']);
  assert.deepEqual(keys(queryEvents(ROWS, { sort: 'nonsense' })), keys(queryEvents(ROWS, {})));
});

test('query events: limit and offset page the list; the limit is held to 1..500 and malformed values are the defaults', () => {
  const page = queryEvents(ROWS, { limit: '2', offset: '1' });
  assert.deepEqual([keys(page), page.total, page.limit, page.offset], [['db-2/custom', 'web-1/disk'], 5, 2, 1]);
  assert.equal(queryEvents(ROWS, { limit: '0' }).limit, 1);
  assert.equal(queryEvents(ROWS, { limit: '9999' }).limit, 500);
  assert.deepEqual([queryEvents(ROWS, { limit: '-5', offset: 'x' }).limit, queryEvents(ROWS, { offset: 'x' }).offset], [50, 0]);
  assert.equal(queryEvents(ROWS, { limit: ['2', '3'] }).limit, 50, 'a repeated parameter is as absent');
  assert.deepEqual(queryEvents(ROWS, { offset: '10' }).items, []);
});
