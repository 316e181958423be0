import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { instanceFor, startInstance, getJson } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';

const client = { name: 'seq', address: '127.0.0.1', subscriptions: [] };

test('flapping, total_state_change and truncation through the socket, seen in the legacy API', async (t) => {
  const root = makeTree({
    'conf.d/a.json': {
      client,
      checks: { flappy: { command: 'true', interval: 60, subscribers: ['none'], low_flap_threshold: 20, high_flap_threshold: 60 } },
      api: {},
    },
  });
  const { daemon, socket, api } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  for (let i = 0; i < 21; i++) {
    assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'flappy', output: `run ${i}`, status: i % 2 ? 2 : 0 })), 'ok');
  }
  const event = (await getJson(`${api}/events/seq/flappy`)).body;
  assert.equal(event.action, 'flapping');
  assert.equal(event.check.total_state_change, 101);
  assert.equal(event.check.history.length, 21);
  // Flapping survives an OK result: the event stays in the registry.
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'flappy', output: 'ok', status: 0 })), 'ok');
  assert.equal((await getJson(`${api}/events/seq/flappy`)).body.action, 'flapping');

  const long = 'a'.repeat(300) + '\nsecond line';
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'metric_out', type: 'metric', output: long, status: 2 })), 'ok');
  const stored = (await getJson(`${api}/results/seq/metric_out`)).body;
  assert.equal(stored.check.output, 'a'.repeat(255) + '\n...');
  assert.equal((await getJson(`${api}/events/seq/metric_out`)).body.check.output, long, 'the event lost its full output');
});

test('legacy API basic auth: 401 with the realm, a password with ":" works, OPTIONS bypasses', async (t) => {
  const { api } = await instanceFor(t, { 'conf.d/a.json': { client, api: { user: 'admin', password: 'se:cret' } } });
  const denied = await getJson(`${api}/events`);
  assert.equal(denied.status, 401);
  assert.equal(denied.headers.get('www-authenticate'), 'Basic realm="Restricted Area"');
  const auth = { authorization: 'Basic ' + Buffer.from('admin:se:cret').toString('base64') };
  assert.equal((await getJson(`${api}/events`, { headers: auth })).status, 200);
  assert.equal((await getJson(`${api}/events`, { method: 'OPTIONS' })).status, 200);
  assert.equal((await getJson(`${api}/events`, { method: 'PUT' })).status, 401, 'auth runs before routing');
});

test('a client with deregister: true sends its deregistration event through its handler when it stops', async (t) => {
  const root = makeTree({});
  const record = join(root, 'deregistration.json');
  writeTree(root, {
    'conf.d/a.json': {
      client: { ...client, deregister: true, deregistration: { team: 'ops', handler: 'record' } },
      handlers: { record: { type: 'pipe', command: `cat > ${record}` } },
    },
  });
  const instance = await startInstance(root);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal(await instance.daemon.stop('SIGTERM'), 0);
  const event = JSON.parse(readFileSync(record, 'utf8'));
  assert.deepEqual(
    [event.check.output, event.check.status, event.check.handler, event.check.team, event.action],
    ['client initiated deregistration', 1, 'record', 'ops', 'create'],
  );
});

test('the built-in deregistration handler deletes the client when it stops', async (t) => {
  const root = makeTree({ 'conf.d/a.json': { client: { ...client, deregister: true } } });
  let instance = await startInstance(root);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  assert.equal(await instance.daemon.stop('SIGTERM'), 0);
  const output = instance.daemon.logs.find((l) => l.msg === 'handler extension output' && l.handler === 'deregistration');
  assert.deepEqual(output?.output, ['deleted client seq']);
  instance = await startInstance(root);
  assert.equal((await getJson(`${instance.api}/events/seq/deregistration`)).status, 404, 'the deletion resolved the deregistration event');
  assert.equal((await getJson(`${instance.api}/results/seq/deregistration`)).status, 404, 'and removed its results');
});
