// A v2 event enters the one intake, as a result does: it leaves through the same listeners and stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { instanceFor, startInstance } from '../../helpers/instance.js';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { adminToken, call } from './v2-helpers.js';

const STREAM = '/api/checkbridge/v1/stream';
const event = (entity: string, check: string, output: string) => ({
  entity: { entity_class: 'proxy', metadata: { name: entity } },
  check: { metadata: { name: check }, publish: false, status: 2, output, handlers: ['record'] },
});

/** The dashboard's server-sent events as they arrive: the names seen so far, and a way to wait for one. */
async function openStream(v2: string, authorization: string) {
  const response = await fetch(`${v2}${STREAM}`, { headers: { authorization } });
  assert.equal(response.status, 200);
  const names: string[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    for (let text = ''; ;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += value;
      for (const match of text.matchAll(/^event: (\w+)$/gm)) names.push(match[1]!);
      text = text.slice(text.lastIndexOf('\n\n') + 2);
    }
  })();
  const waitFor = async (name: string, ms: number) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(25)) if (names.includes(name)) return true;
    return names.includes(name);
  };
  return { names, waitFor, close: () => reader.cancel().catch(() => undefined) };
}

test('v2 events: a PUT is seen by the intake listeners (the dashboard stream announces it, as it does a result)', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'door-host', address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const stream = await openStream(v2, auth);
  t.after(() => stream.close());
  assert.ok(await stream.waitFor('hello', 5000), 'the stream opened');
  // Nothing else happens on this instance: no change is announced until the event.
  assert.equal(await stream.waitFor('change', 700), false, `quiet before the PUT: ${stream.names}`);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/door-proxy/c`, 'PUT', auth, event('door-proxy', 'c', 'seen'))).status, 201);
  assert.ok(await stream.waitFor('change', 5000), `the PUT announced a change: ${stream.names}`);
});

test('v2 events: every PUT answered 201 before a SIGTERM is stored after the restart, and its handler ran before the exit', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'door-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } } });
  const handled = join(root, 'handled');
  mkdirSync(handled);
  let { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = () => `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${ns()}/handlers/record`, 'PUT', auth, { type: 'pipe', command: `cat > "$(mktemp -p ${handled})"` })).status, 201);

  // Sent together; the stop arrives as the first one is answered, the others still in flight.
  const names = Array.from({ length: 40 }, (_, i) => `box-${i}`);
  const replies = names.map((name) => call(`${ns()}/events/${name}/c`, 'PUT', auth, event(name, 'c', `out ${name}`)).catch(() => null));
  await Promise.race(replies);
  const exit = daemon.stop('SIGTERM');
  const answered = (await Promise.all(replies)).map((reply, i) => (reply?.status === 201 ? names[i]! : null)).filter((name) => name !== null);
  assert.equal(await exit, 0, `exit; last lines: ${JSON.stringify(daemon.logs.slice(-5))}`);
  assert.ok(answered.length > 0, 'some events were answered before the stop');
  // Each answered event's handler finished before the exit (the handling queue is drained at stop).
  const outputs = new Set(readdirSync(handled).map((file) => JSON.parse(readFileSync(join(handled, file), 'utf8')).check.output as string));
  for (const name of answered) assert.ok(outputs.has(`out ${name}`), `${name} handled before the exit`);

  ({ daemon, v2 } = await startInstance(root));
  const restartedAuth = `Bearer ${await adminToken(v2)}`;
  for (const name of answered) {
    const read = await call(`${ns()}/events/${name}/c`, 'GET', restartedAuth);
    assert.deepEqual([read.status, read.body?.check?.output], [200, `out ${name}`], name);
  }
});
