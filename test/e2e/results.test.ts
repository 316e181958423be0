import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance as start, getJson as get, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange, udpSend } from '../helpers/net.js';

const client = { name: 'e2e', address: '127.0.0.1', subscriptions: ['web'] };

test('the client socket: ping, ok, invalid, arrays, UDP; events and results through the legacy API', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client, checks: { app_01: { command: 'true', interval: 60, subscribers: ['nobody'], team: 'ops' } } } });
  const { daemon, socket, api } = await start(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });

  assert.equal(await tcpExchange(socket, 'ping'), 'pong');
  assert.equal(await tcpExchange(socket, '{"name":"app_01","output":"could not connect to mysql","status":1}'), 'ok');
  assert.equal(await tcpExchange(socket, ['{"name":"app_01",', '"output":"still down","status":1}'], 100), 'ok');
  assert.equal(await tcpExchange(socket, '{"name":"bad name","output":"x"}'), 'invalid');
  assert.equal(await tcpExchange(socket, '[1, 2]'), 'invalid');
  const started = Date.now();
  assert.equal(await tcpExchange(socket, '{"name":"incomplete"'), 'invalid');
  assert.ok(Date.now() - started >= 450, 'the watchdog answered before 0.5 s');
  assert.equal(
    await tcpExchange(
      socket,
      JSON.stringify([
        { name: 'a1', output: 'x', status: 2 },
        { name: 'a2', output: 'y' },
      ]),
    ),
    'ok',
  );
  await udpSend(socket, JSON.stringify({ name: 'via_udp', output: 'udp says hi', status: 2 }));

  const event = (await get(`${api}/events/e2e/app_01`)).body as Record<string, any>;
  assert.equal(event.occurrences, 2);
  assert.equal(event.occurrences_watermark, 2);
  assert.equal(event.action, 'create');
  assert.equal(event.check.output, 'still down');
  assert.equal(event.check.team, 'ops', 'the server definition was not merged into the result');
  assert.deepEqual(event.check.history, ['1', '1']);
  assert.equal(event.client.name, 'e2e');

  const udp = await eventually(
    () => get(`${api}/events/e2e/via_udp`),
    (r) => r.status === 200,
  );
  assert.equal((udp.body as Record<string, any>).check.status, 2);

  const result = (await get(`${api}/results/e2e/app_01`)).body as Record<string, any>;
  assert.deepEqual(result.check.history, [1, 1]);

  // An OK result resolves the event; the result stays.
  assert.equal(await tcpExchange(socket, '{"name":"app_01","output":"fine"}'), 'ok');
  assert.equal((await get(`${api}/events/e2e/app_01`)).status, 404);
  assert.equal(((await get(`${api}/results/e2e/app_01`)).body as Record<string, any>).check.status, 0);

  const page = await get(`${api}/events?limit=1&offset=1`);
  assert.equal((page.body as unknown[]).length, 1);
  assert.deepEqual(JSON.parse(page.headers.get('x-pagination')!), { limit: 1, offset: 1, total: 2 });
  const filtered = await get(`${api}/events?filter.check.name=a1`);
  assert.deepEqual(
    (filtered.body as Record<string, any>[]).map((e) => e.check.name),
    ['a1'],
  );

  const put = await fetch(`${api}/info`, { method: 'PUT' });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, HEAD');
  assert.equal((await get(`${api}/nope`)).status, 404);
});

test('API POST /results: 202 with issued, 400 on invalid input; results go to the API client or the source', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client } });
  const { daemon, api } = await start(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const post = (body: string) => fetch(`${api}/results`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const ok = await post(JSON.stringify({ name: 'api_check', output: 'from api', status: 1 }));
  assert.equal(ok.status, 202);
  assert.equal(typeof ((await ok.json()) as { issued: number }).issued, 'number');
  assert.equal((await get(`${api}/events/checkbridge-api/api_check`)).status, 200);
  const proxied = await post(JSON.stringify({ name: 'ping', output: 'down', status: 2, source: 'switch-7' }));
  assert.equal(proxied.status, 202);
  const event = (await get(`${api}/events/switch-7/ping`)).body as Record<string, any>;
  assert.equal(event.client.type, 'proxy');
  assert.equal(event.check.origin, 'checkbridge-api');
  for (const bad of ['{"name":"x"}', '[1]', '{"name":"a b","output":"x"}', '{"output":"x","status":"2","name":"n"}', 'not json']) {
    assert.equal((await post(bad)).status, 400, bad);
  }
});

test('kill -9 right after "ok": after a restart the result and its event are there', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client } });
  let { daemon, socket, api } = await start(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  for (let i = 0; i < 20; i++) {
    assert.equal(await tcpExchange(socket, JSON.stringify({ name: `durable_${i}`, output: 'x', status: 2 })), 'ok');
  }
  daemon.proc.kill('SIGKILL');
  await daemon.stop();
  ({ daemon, socket, api } = await start(root));
  const results = (await get(`${api}/results/e2e`)).body as unknown[];
  const events = (await get(`${api}/events/e2e`)).body as unknown[];
  assert.equal(results.length, 20);
  assert.equal(events.length, 20);
});
