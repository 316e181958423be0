// Two servers sharing one real PostgreSQL store schedule v2 CheckConfigs once per cluster: the elected one sees a
// check created through the other, and re-reads the CheckConfigs only when some server wrote a resource.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { postgresFor } from '../servers/postgres.js';
import { agentInstanceFor } from '../helpers/sensu-agent.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

type Line = Record<string, unknown>;
const host = (name: string) => ({ 'conf.d/config.json': { client: { name, address: '127.0.0.1', subscriptions: [] } } });
const rereads = (logs: Line[]) => logs.filter((l) => l.msg === 'CheckConfigs re-read').length;
const published = (check: string) => (l: Line) => l.msg === 'publishing check request' && l.check === check;

test(
  'a CheckConfig created through the server not elected is scheduled by the elected one, which re-reads the CheckConfigs only after a write',
  { timeout: 120_000 },
  async (t) => {
    const pgServer = await postgresFor(t);
    if (!pgServer) return;
    const shared = ['--store-dsn', pgServer.url(), '--log-level', 'debug'];
    const a = await agentInstanceFor(t, host('server-a'), shared);
    await a.daemon.waitFor((l) => l.msg === 'became the elected server', 15_000);
    const b = await agentInstanceFor(t, host('server-b'), shared);
    // What crosses between the servers: no request for a subscription no other server holds a member of.
    const listener = new pg.Client({ connectionString: pgServer.url() });
    // The database may stop before the listener ends (the order of the test's after-hooks).
    listener.on('error', () => undefined);
    await listener.connect();
    t.after(() => listener.end());
    const crossed: string[] = [];
    listener.on('notification', (note) => crossed.push(note.payload ?? ''));
    await listener.query('LISTEN checkbridge_check_requests');
    const auth = `Bearer ${await adminToken(b.v2)}`;
    const check = { metadata: { name: 'made-on-b' }, command: 'true', interval: 1, publish: true, subscriptions: ['nobody'], handlers: [] };
    assert.equal((await call(`${b.v2}/api/core/v2/namespaces/default/checks/made-on-b`, 'PUT', auth, check)).status, 201);

    await a.daemon.waitFor(published('made-on-b'), 20_000);
    const before = rereads(a.daemon.logs);
    // Four more scheduled requests: four sync ticks at least, with no resource written by either server meanwhile.
    await a.daemon.waitFor(() => a.daemon.logs.filter(published('made-on-b')).length >= 5, 20_000);
    assert.equal(rereads(a.daemon.logs), before, 'the CheckConfigs were re-read while nothing was written');
    assert.equal(b.daemon.logs.filter(published('made-on-b')).length, 0, 'the server not elected scheduled it too');
    assert.ok(
      crossed.some((p) => p.includes('"members":[]')),
      'the servers told each other their (empty) rosters',
    );
    assert.deepEqual(
      crossed.filter((p) => p.includes('made-on-b')),
      [],
      'a request crossed to a server holding no member',
    );

    // A write through B moves the shared generation: A re-reads once and drops the deleted check.
    const seen = a.daemon.logs.length;
    assert.equal((await call(`${b.v2}/api/core/v2/namespaces/default/checks/made-on-b`, 'DELETE', auth)).status, 204);
    await a.daemon.waitFor((l) => l.msg === 'CheckConfigs re-read' && l.checks === 0, 20_000, seen);
    assert.equal(rereads(a.daemon.logs), before + 1);
  },
);
