// One channel's acknowledgements sent once per turn: the settled run at the head as one multiple ack, the rest singly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Channel, ConsumeMessage } from 'amqplib';
import { ChannelAcks } from '../../../src/transport/rabbitmq/acks.js';

// amqplib's channel as far as acknowledgements go: every frame it would send, in order.
function channel(fail = false) {
  const frames: string[] = [];
  const record = (kind: string) => (message: ConsumeMessage, multiple?: boolean, requeue?: boolean) => {
    if (fail) throw new Error('Channel closed');
    frames.push(`${kind} ${message.fields.deliveryTag}${multiple ? ' multiple' : ''}${requeue ? ' requeue' : ''}`);
  };
  return { frames, channel: { ack: record('ack'), nack: record('nack') } as unknown as Channel };
}

const message = (tag: number) => ({ fields: { deliveryTag: tag }, content: Buffer.from('') }) as unknown as ConsumeMessage;
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('the settled head goes as one multiple ack after the turn, later settled ones one by one', async () => {
  const { frames, channel: ch } = channel();
  const acks = new ChannelAcks(ch);
  const messages = [1, 2, 3, 4, 5].map(message);
  messages.forEach((m) => acks.delivered(m));
  for (const tag of [2, 1, 3, 5]) acks.ack(messages[tag - 1]!);
  assert.deepEqual(frames, [], 'nothing sent within the turn');
  await turn();
  assert.deepEqual(frames, ['ack 3 multiple', 'ack 5']);
  acks.ack(messages[3]!);
  await turn();
  assert.deepEqual(frames.at(-1), 'ack 4', 'a run of one is not multiple');
});

test('an unknown or already acknowledged delivery is not acknowledged again', async () => {
  const { frames, channel: ch } = channel();
  const acks = new ChannelAcks(ch);
  const one = message(1);
  acks.delivered(one);
  acks.ack(one);
  acks.ack(one);
  acks.ack(message(9));
  await turn();
  acks.ack(one);
  await turn();
  assert.deepEqual(frames, ['ack 1']);
});

test('settledWithin: at once when nothing is pending, once the last settles, false when time runs out', async () => {
  const { channel: ch } = channel();
  const acks = new ChannelAcks(ch);
  assert.equal(await acks.settledWithin(10), true);
  const one = message(1);
  acks.delivered(one);
  assert.equal(await acks.settledWithin(10), false);
  const settled = acks.settledWithin(60_000);
  acks.ack(one);
  assert.equal(await settled, true);
});

test('requeue sends the delivery back at once, so no later multiple ack covers it', async () => {
  const { frames, channel: ch } = channel();
  const acks = new ChannelAcks(ch);
  const messages = [1, 2, 3].map(message);
  messages.forEach((m) => acks.delivered(m));
  acks.ack(messages[0]!);
  acks.requeue(messages[1]!);
  acks.ack(messages[2]!);
  acks.requeue(messages[1]!);
  await turn();
  assert.deepEqual(frames, ['nack 2 requeue', 'ack 3 multiple']);
});

test('after basic.recover nothing pending is acknowledged; a closed channel throws nothing', async () => {
  const { frames, channel: ch } = channel();
  const acks = new ChannelAcks(ch);
  const one = message(1);
  acks.delivered(one);
  const settled = acks.settledWithin(60_000);
  acks.forget();
  assert.equal(await settled, true);
  acks.ack(one);
  await turn();
  assert.deepEqual(frames, []);
  const closed = new ChannelAcks(channel(true).channel);
  closed.delivered(one);
  closed.ack(one);
  await turn();
  closed.delivered(message(2));
  closed.requeue(message(2));
  assert.equal(await closed.settledWithin(0), true);
});
