// The default transport: one process, delivery on the next tick, each consumer its own copy, shared queues in turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessTransport } from '../../src/transport/in-process.js';
import type { CheckRequest } from '../../src/transport/transport.js';

const request = (name: string) => ({ name, command: 'true', issued: 1 }) as unknown as CheckRequest;
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('fanout: every subscriber gets its own copy, on the next tick', async () => {
  const transport = new InProcessTransport();
  const got: [string, CheckRequest, string][] = [];
  transport.subscribe('linux', 'a', (r, s) => got.push(['a', r, s]));
  transport.subscribe('linux', 'b', (r, s) => got.push(['b', r, s]));
  const sent = request('disk');
  transport.publish('linux', sent);
  assert.equal(got.length, 0, 'not within the publish');
  await turn();
  assert.deepEqual(
    got.map(([who, r, s]) => [who, r.name, s]),
    [
      ['a', 'disk', 'linux'],
      ['b', 'disk', 'linux'],
    ],
  );
  assert.notEqual(got[0]![1], sent);
  assert.notEqual(got[0]![1], got[1]![1], 'a consumer changing its request does not change another’s');
});

test('roundrobin: and direct: subscriptions go to one consumer at a time, in turn', async () => {
  const transport = new InProcessTransport();
  const got: string[] = [];
  for (const who of ['a', 'b', 'c']) transport.subscribe('roundrobin:web', who, () => got.push(who));
  for (let i = 0; i < 4; i++) transport.publish('roundrobin:web', request('http'));
  await turn();
  assert.deepEqual(got, ['a', 'b', 'c', 'a']);
  const direct: string[] = [];
  transport.subscribe('direct:x', 'only', () => direct.push('only'));
  transport.publish('direct:x', request('x'));
  transport.publish('direct:x', request('x'));
  await turn();
  assert.deepEqual(direct, ['only', 'only']);
});

test('nothing is delivered without subscribers, after unsubscribing, or after close', async () => {
  const transport = new InProcessTransport();
  transport.publish('nobody', request('x'));
  const got: string[] = [];
  const stop = transport.subscribe('linux', 'a', () => got.push('a'));
  transport.subscribe('linux', 'b', () => got.push('b'));
  stop();
  stop();
  transport.publish('linux', request('x'));
  await turn();
  assert.deepEqual(got, ['b']);
  await transport.close();
  transport.publish('linux', request('x'));
  await turn();
  assert.deepEqual(got, ['b']);
});
