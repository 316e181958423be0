// The sandbox thread driven by hand over its protocol: a shared control buffer and a message port.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { READ, READY, REPLY, REQUEST, SLOTS, STARTED, TASK, type Limits, type Reply } from '../../src/js-sandbox/protocol.js';

const LIMITS: Limits = { budgetMs: 25, hardCapMs: 5000, readCapMs: 5000, memoryBytes: 8 << 20, stackBytes: 128 << 10 };
const control = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
let worker: Worker;
let port: MessagePort;
let seq = 0;

before(async () => {
  const channel = new MessageChannel();
  port = channel.port1;
  worker = new Worker(new URL('../../src/js-sandbox/worker.js', import.meta.url), {
    workerData: { control: control.buffer, port: channel.port2, limits: LIMITS },
    transferList: [channel.port2],
  });
  const [message] = (await once(worker, 'message')) as [{ ready?: boolean; failed?: string }];
  assert.deepEqual(message, { ready: true });
});
after(async () => {
  port.close();
  await worker.terminate();
});

async function ask(expression: string, scope: Record<string, unknown> = {}, raw?: string): Promise<Reply> {
  const request = { seq: ++seq, expression, input: raw ?? JSON.stringify({ now: 0, self: 'web-1', deps: {}, scope }) };
  const replied = once(port, 'message') as Promise<[Reply]>;
  port.postMessage(request);
  Atomics.store(control, REQUEST, request.seq);
  Atomics.notify(control, REQUEST);
  const [reply] = await replied;
  // The thread writes the reply slot just after it posts the reply.
  for (let turns = 0; Atomics.load(control, REPLY) !== request.seq && turns < 10_000; turns++) await new Promise(setImmediate);
  assert.equal(Atomics.load(control, REPLY), request.seq, 'the reply slot names the request');
  return reply;
}

test('ready: the state slot says so and the thread names its kernel task', () => {
  assert.equal(Atomics.load(control, READY), 1);
  if (process.platform === 'linux') assert.ok(Atomics.load(control, TASK) > 0);
});

test('an expression is evaluated on its scope and its truthiness is the answer, with the CPU it took', async () => {
  const reply = await ask('event.entity.labels.tier === "web" && weekday(0) === 4', { event: { entity: { labels: { tier: 'web' } } } });
  assert.equal(reply.matched, true);
  assert.equal(reply.needs, '');
  assert.equal(typeof reply.ms, 'number');
  assert.equal(typeof reply.readMs, 'number');
  assert.equal(Atomics.load(control, STARTED), reply.seq);
  assert.equal(Atomics.load(control, READ), reply.seq);
  assert.equal((await ask('""')).matched, false);
  assert.equal((await ask('[]')).matched, true);
});

test('the dependencies an expression asked for and the request lacked are in the reply', async () => {
  const reply = await ask('sensu.CheckDependencies("db")');
  assert.equal(reply.needs, 'web-1\u001fdb\u001e');
  assert.deepEqual(reply.error, { kind: 'error', message: 'Error: sensu.CheckDependencies: the dependencies are being read' });
});

test('a thrown string is its own message; an error its name and message', async () => {
  assert.deepEqual((await ask('throw "plain"')).error, { kind: 'error', message: 'plain' });
  assert.deepEqual((await ask('null.x')).error?.kind, 'error');
  assert.match((await ask('null.x')).error!.message, /^TypeError: /);
  assert.match((await ask('var')).error!.message, /^SyntaxError: /);
});

test('past its CPU budget an expression stops; past its memory it fails; the thread serves the next one', async () => {
  assert.deepEqual((await ask('for (;;) {}')).error, { kind: 'timeout', message: 'exceeded its CPU budget of 25 ms' });
  assert.deepEqual((await ask('var a = new Array(1e7).fill(1); true')).error, {
    kind: 'memory',
    message: 'exceeded its memory limit of 8 MB',
  });
  assert.equal((await ask('1 + 1 === 2')).matched, true);
});

test('an input that cannot be read is not the expression’s failure, and its expression never starts', async () => {
  const reply = await ask('true', {}, '{not json');
  assert.deepEqual(reply.error, { kind: 'input', message: 'its input could not be read' });
  assert.notEqual(Atomics.load(control, READ), reply.seq);
  assert.equal(reply.ms, 0);
});

test('nothing an evaluation leaves behind is seen by the next', async () => {
  await ask('globalThis.leak = 1; Object.prototype.polluted = true; true');
  assert.equal((await ask('typeof leak === "undefined" && !({}).polluted')).matched, true);
});
