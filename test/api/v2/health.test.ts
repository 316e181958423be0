// GET /health and GET /metrics as registerHealthRoute serves them over a real SQLite store.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerHealthRoute } from '../../../src/api/v2/health.js';
import type { V2ApiDeps } from '../../../src/api/v2/context.js';
import { v2Deps } from '../../helpers/v2-api.js';

function healthApp(t: TestContext, extra: Partial<V2ApiDeps> = {}) {
  const { deps } = v2Deps(t, extra);
  const app = Fastify();
  registerHealthRoute(app, deps);
  t.after(() => app.close());
  return app;
}

test('health names the embedded store as the one healthy member, with no alarm and no PostgreSQL entry', async (t) => {
  const reply = await healthApp(t).inject({ method: 'GET', url: '/health' });
  assert.equal(reply.statusCode, 200);
  assert.deepEqual(reply.json(), {
    Alarms: null,
    ClusterHealth: [{ MemberID: 1, MemberIDHex: '1', Name: 'checkbridge', Err: '', Healthy: true }],
    Header: { cluster_id: 1, member_id: 1, raft_term: 0 },
  });
});

test('health carries the annotations it is given', async (t) => {
  const app = healthApp(t, { annotations: () => ({ 'checkbridge.io/outbox': '3' }) });
  assert.deepEqual((await app.inject({ method: 'GET', url: '/health' })).json().Annotations, { 'checkbridge.io/outbox': '3' });
});

test('a timeout that is not an integer is refused as Go’s strconv refuses it; an integer one is taken', async (t) => {
  const app = healthApp(t);
  const bad = await app.inject({ method: 'GET', url: '/health?timeout=5s' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(bad.body, 'strconv.Atoi: parsing "5s": invalid syntax\n');
  assert.equal((await app.inject({ method: 'GET', url: '/health?timeout=-3' })).statusCode, 200);
});

test('metrics serve the Prometheus text they are given, and an empty body without any', async (t) => {
  const served = await healthApp(t, { metrics: async () => 'checkbridge_up 1\n' }).inject({ method: 'GET', url: '/metrics' });
  assert.equal(served.headers['content-type'], 'text/plain; version=0.0.4');
  assert.equal(served.body, 'checkbridge_up 1\n');
  const empty = await healthApp(t).inject({ method: 'GET', url: '/metrics' });
  assert.equal(empty.statusCode, 200);
  assert.equal(empty.body, '');
});
