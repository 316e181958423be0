import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { instanceFor, getJson, eventually } from '../helpers/instance.js';
import { tcpExchange, udpSend } from '../helpers/net.js';

const COUNT = 1000;

// A seeded generator, so a failure names an input that can be replayed.
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const valid = { name: 'flood_ok', output: 'fine', status: 0 };
  const makers: (() => string | Buffer)[] = [
    () => Buffer.from(Array.from({ length: 1 + Math.floor(next() * 64) }, () => Math.floor(next() * 256))),
    () => JSON.stringify(valid).slice(0, 1 + Math.floor(next() * 40)),
    () => JSON.stringify({ ...valid, status: pick(['0', 1.5, -0.5, [], {}, true]) }),
    () => JSON.stringify({ ...valid, output: pick([5, null, [], {}, false]) }),
    () => JSON.stringify({ ...valid, name: pick(['has space', '', 'new\nline', 'semi;colon', 7, null]) }),
    () => JSON.stringify({ ...valid, ttl: pick([0, -1, 'x', 1.5]) }),
    () => JSON.stringify({ ...valid, source: pick(['to:ken', '', 'a b']) }),
    () => JSON.stringify(pick([[1], 'str', 42, null, true, [[valid]]])),
    () => JSON.stringify({ ...valid, handlers: pick(['x', [1], ['']]) }),
    () => Buffer.concat([Buffer.from('{"name":"x","output":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('", "status": "bad"}')]),
    () => '{"name": "x", "output": "' + 'y'.repeat(Math.floor(next() * 5000)) + '", "status": 1.25}',
  ];
  return () => pick(makers)();
}

/** One connection: send, half-close, read the answer. */
function sendAndClose(port: number, payload: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(payload));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

async function inBatches<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => task(i + j)))));
  return out;
}

test('1,000 malformed inputs through each door: each refused as documented, the process keeps serving, nothing accepted is lost', async (t) => {
  const { daemon, socket, api, agent } = await instanceFor(t, { 'conf.d/a.json': { client: { name: 'flood', address: '127.0.0.1', subscriptions: [] } } });
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'before', output: 'kept', status: 2 })), 'ok');

  const tcpInputs = generator(1);
  const tcpAnswers = await inBatches(COUNT, 25, async () => {
    const input = tcpInputs();
    return { input: String(input), answer: await sendAndClose(socket, input) };
  });
  const accepted = tcpAnswers.filter((a) => a.answer !== 'invalid');
  assert.deepEqual(accepted, [], 'a malformed TCP input was not answered "invalid"');

  const udpInputs = generator(2);
  for (let i = 0; i < COUNT; i++) {
    const input = udpInputs();
    await udpSend(socket, typeof input === 'string' ? input : input.toString('latin1'));
  }

  const httpInputs = generator(3);
  const httpStatuses = await inBatches(COUNT, 25, async () => {
    const input = httpInputs();
    const response = await fetch(`${agent}/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof input === 'string' ? input : new Uint8Array(input),
    });
    await response.arrayBuffer();
    return response.status;
  });
  assert.deepEqual([...new Set(httpStatuses)].sort(), [400], 'agent HTTP answered something else than 400');

  const apiInputs = generator(4);
  const apiStatuses = await inBatches(COUNT, 25, async () => {
    const response = await fetch(`${api}/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ((input) => (typeof input === 'string' ? input : new Uint8Array(input)))(apiInputs()),
    });
    await response.arrayBuffer();
    return response.status;
  });
  assert.ok(
    apiStatuses.every((s) => s === 400),
    `legacy API answered ${[...new Set(apiStatuses)]}`,
  );

  const huge = await sendAndClose(socket, '{"name":"big","output":"' + 'x'.repeat(2 * 1024 * 1024) + '"}');
  assert.equal(huge, 'invalid');
  const hugeHttp = await fetch(`${agent}/results`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"big","output":"' + 'x'.repeat(2 * 1024 * 1024) + '"}',
  });
  assert.equal(hugeHttp.status, 413);

  assert.equal(await tcpExchange(socket, 'ping'), 'pong');
  assert.equal(await tcpExchange(socket, JSON.stringify({ name: 'after', output: 'still here', status: 1 })), 'ok');
  const events = await eventually(
    () => getJson(`${api}/events/flood`),
    (r) => r.body.length === 2,
  );
  assert.deepEqual(events.body.map((e: { check: { name: string } }) => e.check.name).sort(), ['after', 'before']);
  const results = (await getJson(`${api}/results/flood`)).body as { check: { name: string } }[];
  assert.deepEqual(results.map((r) => r.check.name).sort(), ['after', 'before']);
  assert.equal(daemon.proc.exitCode, null);
});
