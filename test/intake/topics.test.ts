// The intake's topics: every subscriber gets every value in order, unsubscribing stops it, and the intake publishes there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntakeTopics, Topic, type EntityChange } from '../../src/intake/topics.js';
import { type IntakeEvent } from '../../src/intake/intake.js';
import type { EventDraft } from '../../src/legacy/index.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

test('a topic: each subscriber in the order subscribed, each value; an unsubscribed one gets no more', () => {
  const topic = new Topic<number>('numbers');
  const seen: string[] = [];
  const { publish, subscribe } = topic;
  const stopA = subscribe((n) => seen.push(`a${n}`));
  subscribe((n) => seen.push(`b${n}`));
  publish(1);
  stopA();
  stopA();
  publish(2);
  assert.deepEqual(seen, ['a1', 'b1', 'b2']);
  assert.equal(topic.name, 'numbers');
});

test('a subscriber unsubscribing while a value is published: the others still get that value', () => {
  const topic = new Topic<number>('numbers');
  const seen: string[] = [];
  const stop = topic.subscribe(() => (seen.push('once'), stop()));
  topic.subscribe((n) => seen.push(`kept${n}`));
  topic.publish(1);
  topic.publish(2);
  assert.deepEqual(seen, ['once', 'kept1', 'kept2']);
});

test("the named topics; an entity change in the v2 API's shape", () => {
  const topics = new IntakeTopics();
  assert.deepEqual([topics.committed.name, topics.keepalive.name, topics.entityChange.name], ['committed event', 'keepalive', 'entity change']);
  const changes: EntityChange[] = [];
  topics.entityChange.subscribe((change) => changes.push(change));
  topics.entityWritten('ops', 'web-1');
  assert.deepEqual(changes, [{ namespace: 'ops', name: 'web-1' }]);
});

test('the intake publishes committed events and keepalive registrations on its topics', async (t) => {
  const { intake } = sqliteIntake(t);
  const committed: IntakeEvent[] = [];
  const registrations: EventDraft[] = [];
  intake.topics.committed.subscribe((event) => committed.push(event));
  intake.topics.keepalive.subscribe((event) => registrations.push(event));
  const registration = { id: 'r-1', client: { name: 'new-one' }, check: { name: 'registration', status: 1 } } as unknown as EventDraft;
  intake.submitRegistration(registration);
  await intake.submit({ client: 'web-1', check: { name: 'disk', output: 'full', status: 2, executed: 1 } });
  assert.deepEqual(registrations, [registration]);
  assert.equal(committed.length, 1);
  const event = committed[0] as unknown as { event: { client: { name: string }; check: { name: string } } };
  assert.deepEqual([event.event.client.name, event.event.check.name], ['web-1', 'disk']);
});
