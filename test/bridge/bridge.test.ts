import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson, adminBasic, eventually, type Instance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { call } from '../api/v2/v2-helpers.js';

const CHECKS = ['c0', 'c1', 'c2', 'c3', 'c4'];

test('bridge: every event reaches the backend once, in order, through a backend restart and a kill -9 of the sender', async (t) => {
  const backendRoot = makeTree({ 'conf.d/client.json': { client: { name: 'backend-host', address: '127.0.0.1', subscriptions: [] } } });
  const senderRoot = makeTree({ 'conf.d/client.json': { client: { name: 'sender-host', address: '127.0.0.1', subscriptions: [] } } });
  let backend: Instance = await startInstance(backendRoot);
  let sender: Instance = null as unknown as Instance;
  t.after(async () => {
    await sender?.daemon.stop('SIGKILL');
    await backend.daemon.stop('SIGKILL');
    removeTree(backendRoot);
    removeTree(senderRoot);
  });
  const v2Port = new URL(backend.v2).port;
  const token = (await getJson(`${backend.v2}/auth`, { headers: adminBasic })).body.access_token;
  const key = (await call(`${backend.v2}/api/core/v2/apikeys`, 'POST', `Bearer ${token}`, { username: 'admin' })).headers.get('location')!.split('/').pop()!;
  const bridgeArgs = ['--bridge-url', backend.v2, '--bridge-api-key', key];
  sender = await startInstance(senderRoot, bridgeArgs);

  const sent: Record<string, number[]> = Object.fromEntries(CHECKS.map((c) => [c, []]));
  let n = 0;
  const sendRound = async () => {
    for (const check of CHECKS) {
      const status = n++ % 3;
      assert.equal(await tcpExchange(sender!.socket, JSON.stringify({ name: check, output: `result ${n}`, status })), 'ok');
      sent[check]!.push(status);
    }
  };
  const backendHistory = async (check: string) => {
    const reply = await call(`${backend.v2}/api/core/v2/namespaces/default/events/sender-host/${check}`, 'GET', `Key ${key}`);
    return reply.status === 200 ? (reply.body.check.history as { status: number }[]).map((h) => h.status) : [];
  };
  const allDelivered = async () => {
    for (const check of CHECKS)
      assert.deepEqual(
        await eventually(
          () => backendHistory(check),
          (h) => h.length === sent[check]!.length,
          20_000,
        ),
        sent[check],
        check,
      );
  };

  for (let i = 0; i < 4; i++) await sendRound();
  await allDelivered();

  // The backend stops: events wait in the outbox, the failure is logged once, local processing goes on.
  await backend.daemon.stop('SIGTERM');
  const before = sender.daemon.logs.length;
  for (let i = 0; i < 4; i++) await sendRound();
  const waiting = await eventually(
    async () => (await getJson(`${sender.api}/bridge`)).body,
    (b) => b.depth === 20 && b.status !== 'delivering',
  );
  assert.match(String(waiting.status), /ECONNREFUSED|other side closed|UND_ERR/);
  assert.equal((await getJson(`${sender.api}/results/sender-host/c1`)).body.check.output, `result ${n - 3}`, 'local processing is unaffected');
  await new Promise((r) => setTimeout(r, 1500));
  const failures = sender.daemon.logs.slice(before).filter((l) => l.msg === 'bridge cannot deliver: retrying with backoff');
  assert.ok(failures.length >= 1 && failures.length <= 2, `logged once per state change, not per event (${failures.length})`);

  backend = await startInstance(backendRoot, ['--v2-port', v2Port]);
  await allDelivered();
  await sender.daemon.waitFor((l) => l.msg === 'bridge delivering', 10_000, before);
  const info = (await getJson(`${sender.api}/info`)).body.bridge;
  assert.deepEqual([info.depth, info.dead_lettered, info.status], [0, 0, 'delivering']);
  assert.ok(info.delivered >= 40);

  // kill -9 of the sender mid-stream: after its restart every event is there exactly once.
  for (let i = 0; i < 2; i++) await sendRound();
  await sender.daemon.stop('SIGKILL');
  sender = await startInstance(senderRoot, bridgeArgs);
  await allDelivered();
  // Acknowledged rows leave the outbox in one transaction per turn, just after the backend has them.
  const metrics = await eventually(
    async () => (await fetch(`${sender.v2}/metrics`)).text(),
    (text) => /^checkbridge_bridge_outbox_depth 0$/m.test(text),
  );
  assert.match(metrics, /^checkbridge_bridge_outbox_depth 0$/m);
  const health = (await getJson(`${sender.v2}/health`)).body;
  assert.equal(health.Annotations['checkbridge.bridge.depth'], '0');

  // An event the backend refuses (413: too large) goes to the dead letters, visible and logged; the rest flows on.
  assert.equal(await tcpExchange(sender.socket, JSON.stringify({ name: 'huge', output: 'x'.repeat(600_000), status: 2 })), 'ok');
  await sendRound();
  await allDelivered();
  const dead = await eventually(
    async () => (await getJson(`${sender.api}/bridge/dead_letters`)).body as any[],
    (d) => d.length === 1,
  );
  assert.deepEqual([dead[0].check, dead[0].status], ['huge', 413]);
  await sender.daemon.waitFor((l) => l.msg === 'bridge: backend refused the event; moved to dead letters');
});

test('bridge: a wrong API key is retried, not dead-lettered, and logged once with the reason', async (t) => {
  const backendRoot = makeTree({ 'conf.d/client.json': { client: { name: 'backend-2', address: '127.0.0.1', subscriptions: [] } } });
  const senderRoot = makeTree({ 'conf.d/client.json': { client: { name: 'sender-2', address: '127.0.0.1', subscriptions: [] } } });
  const backend = await startInstance(backendRoot);
  const sender = await startInstance(senderRoot, ['--bridge-url', backend.v2, '--bridge-api-key', '00000000-0000-4000-8000-000000000000']);
  t.after(async () => {
    await sender.daemon.stop('SIGKILL');
    await backend.daemon.stop('SIGKILL');
    removeTree(backendRoot);
    removeTree(senderRoot);
  });
  for (let i = 0; i < 5; i++) assert.equal(await tcpExchange(sender.socket, JSON.stringify({ name: `k${i}`, output: 'x', status: 1 })), 'ok');
  const line = await sender.daemon.waitFor((l) => l.msg === 'bridge cannot deliver: retrying with backoff');
  assert.match(String(line.reason), /HTTP 401: invalid credentials/);
  await new Promise((r) => setTimeout(r, 1500));
  const bridge = (await getJson(`${sender.api}/bridge`)).body;
  assert.deepEqual([bridge.depth, bridge.dead_lettered], [5, 0]);
  assert.equal(sender.daemon.logs.filter((l) => l.msg === 'bridge cannot deliver: retrying with backoff').length, 1);
});
