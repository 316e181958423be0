import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTree, removeTree } from '../helpers/tree.js';
import { instanceFor, startInstance, getJson, postJson, eventually } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';

const client = { name: 'doors', address: '127.0.0.1', subscriptions: ['web'], http_socket: { user: 'u', password: 'p:w' } };
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

test('agent HTTP: POST /results 202/400/415, POST /events, /info, /settings with basic auth, /brew, 404, 405', async (t) => {
  const { agent, api } = await instanceFor(t, { 'conf.d/a.json': { client } });
  const ok = await postJson(`${agent}/results`, { name: 'http_check', output: 'via http', status: 1 });
  assert.deepEqual([ok.status, ok.body], [202, { response: 'ok' }]);
  assert.equal((await getJson(`${api}/events/doors/http_check`)).status, 200);
  const invalid = await postJson(`${agent}/results`, { name: 'bad name', output: 'x' });
  assert.deepEqual([invalid.status, invalid.body], [400, { response: 'check name cannot contain spaces or special characters' }]);
  assert.deepEqual((await postJson(`${agent}/results`, '{oops')).body, { response: 'Failed to parse JSON body' });
  assert.equal((await getJson(`${agent}/results`, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } })).status, 415);

  const adhoc = await postJson(`${agent}/events`, { check: { metadata: { name: 'adhoc' }, status: 2, output: 'test event', handlers: ['slack'] } });
  assert.equal(adhoc.status, 202);
  const event = (await getJson(`${api}/events/doors/adhoc`)).body;
  assert.deepEqual([event.check.status, event.check.output, event.check.handlers], [2, 'test event', ['slack']]);

  assert.equal((await getJson(`${agent}/info`)).status, 200);
  assert.equal((await getJson(`${agent}/settings`)).status, 401);
  assert.equal((await getJson(`${agent}/settings`, { headers: basic('u', 'wrong') })).status, 401);
  const settings = await getJson(`${agent}/settings`, { headers: basic('u', 'p:w') });
  assert.equal(settings.status, 200);
  assert.equal(settings.body.client.http_socket.password, 'REDACTED');
  assert.equal((await getJson(`${agent}/settings?redacted=false`, { headers: basic('u', 'p:w') })).body.client.http_socket.password, 'p:w');
  assert.equal((await getJson(`${agent}/brew`)).status, 418);
  const missing = await getJson(`${agent}/nope`);
  assert.equal(missing.status, 404);
  assert.ok(missing.body.endpoints['/results']);
  const wrong = await getJson(`${agent}/info`, { method: 'DELETE' });
  assert.deepEqual([wrong.status, wrong.body], [405, { response: 'Valid methods for this endpoint: ["GET"]' }]);
});

test('TTL: a stale result raises "Last check execution was N seconds ago" with ttl_status; a fresh result resolves it', async (t) => {
  const { socket, api } = await instanceFor(t, { 'conf.d/a.json': { client, checkbridge: { monitor_interval: 0.5 } } });
  const past = Math.floor(Date.now() / 1000) - 10;
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'heartbeat', output: 'alive', ttl: 5, ttl_status: 2, executed: past })), 'ok');
  const event = await eventually(
    () => getJson(`${api}/events/doors/heartbeat`),
    (r) => r.status === 200,
  );
  assert.equal(event.body.check.status, 2);
  assert.match(event.body.check.output, /^Last check execution was \d+ seconds ago$/);
  assert.equal(event.body.check.interval, 30);
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'heartbeat', output: 'alive again', ttl: 60 })), 'ok');
  const resolved = await eventually(
    () => getJson(`${api}/events/doors/heartbeat`),
    (r) => r.status === 404,
  );
  assert.equal(resolved.status, 404);
});

test('keepalives: the client registers; a client gone silent gets a keepalive event with the legacy output', async (t) => {
  const { api } = await instanceFor(t, { 'conf.d/a.json': { client, checkbridge: { monitor_interval: 0.5 } } });
  const self = await getJson(`${api}/clients/doors`);
  assert.equal(self.status, 200);
  assert.deepEqual(self.body.subscriptions, ['web', 'client:doors']);
  assert.equal(self.body.http_socket.password, 'REDACTED');
  const created = await postJson(`${api}/clients`, {
    name: 'silent',
    address: '10.0.0.9',
    keepalives: true,
    keepalive: { thresholds: { warning: 1, critical: 2 } },
  });
  assert.deepEqual([created.status, created.body], [201, { name: 'silent' }]);
  const event = await eventually(
    () => getJson(`${api}/events/silent/keepalive`),
    (r) => r.status === 200 && r.body.check.status === 2,
    10_000,
  );
  assert.match(event.body.check.output, /^No keepalive sent from client for \d+ seconds \(>=2\)$/);
  assert.equal((await getJson(`${api}/events/doors/keepalive`)).status, 404, 'the live local client has a keepalive event');
  assert.equal((await postJson(`${api}/clients`, { name: 'no address' })).status, 400);
});

test('API resolve, delete event, request, client history and delete with invalidate', async (t) => {
  const root = makeTree({
    'conf.d/a.json': { client, checks: { on_demand: { command: 'echo requested; exit 2', subscribers: ['web'], interval: 3600, publish: false } } },
  });
  const { daemon, socket, api } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal(await tcpExchange(socket, '{"name":"broken","output":"down","status":2}'), 'ok');
  assert.equal((await postJson(`${api}/resolve`, { client: 'doors' })).status, 400);
  assert.equal((await postJson(`${api}/resolve`, { client: 'doors', check: 'nothing' })).status, 404);
  const resolved = await postJson(`${api}/resolve`, { client: 'doors', check: 'broken' });
  assert.equal(resolved.status, 202);
  assert.equal(typeof resolved.body.issued, 'number');
  assert.equal((await getJson(`${api}/events/doors/broken`)).status, 404);
  assert.equal((await getJson(`${api}/results/doors/broken`)).body.check.force_resolve, true);

  assert.equal(await tcpExchange(socket, '{"name":"broken","output":"down again","status":2}'), 'ok');
  assert.equal((await getJson(`${api}/events/doors/broken`, { method: 'DELETE' })).status, 202);
  assert.equal((await getJson(`${api}/events/doors/broken`)).status, 404);

  assert.equal((await postJson(`${api}/request`, { check: 'nope' })).status, 404);
  assert.equal((await postJson(`${api}/request`, { check: 5 })).status, 400);
  assert.equal((await postJson(`${api}/request`, { check: 'on_demand', reason: 'testing' })).status, 202);
  const requested = await eventually(
    () => getJson(`${api}/events/doors/on_demand`),
    (r) => r.status === 200,
  );
  assert.deepEqual([requested.body.check.output, requested.body.check.api_requested.reason], ['requested\n', 'testing']);

  const history = (await getJson(`${api}/clients/doors/history`)).body as { check: string; history: number[] }[];
  assert.deepEqual(history.find((h) => h.check === 'broken')?.history, [2, 0, 2, 0]);

  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'p', output: 'x', status: 1, source: 'gone' })), 'ok');
  assert.equal((await getJson(`${api}/clients/gone?invalidate=true`, { method: 'DELETE' })).status, 202);
  await eventually(
    () => getJson(`${api}/clients/gone`),
    (r) => r.status === 404,
  );
  assert.equal((await getJson(`${api}/clients/gone`)).status, 404);
  assert.equal((await getJson(`${api}/events/gone`)).body.length, 0);
  // `ok` means committed: a result the invalidated client may not send is refused.
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'p', output: 'x', status: 1, source: 'gone' })), 'invalid');
  assert.equal((await getJson(`${api}/events/gone`)).body.length, 0, 'an invalidated client accepted a result');
  assert.equal((await getJson(`${api}/clients/nobody`, { method: 'DELETE' })).status, 404);
});
