// A v2 event on its way into the event store (CreateOrReplace): defaults and validation, id and created_by, the proxy
// entity it creates or the stored entity it takes, silencing, a sender's replay, and the rows a store reads ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishEvent, publishEventSync, v2RowsOf, type Publish } from '../../src/intake/v2-events.js';
import { EmbeddedEventStore } from '../../src/store/tables/embedded-event-store.js';
import { typedEvent, type DecodedEvent } from '../../src/v2/index.js';
import { sqliteStore } from '../helpers/sqlite-store.js';

const NOW = 1_700_000_000;
const typed = (body: unknown): DecodedEvent => typedEvent(body).value!;
const open = () => null;
const stored = (answer: Publish) => {
  assert.ok(answer.ok, answer.ok ? '' : answer.message);
  return answer.event as Record<string, any>;
};

test('an event about an unknown proxy creates its entity (proxy, with its entity: subscription) and is stored with an id', async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  const answer = await publishEvent(
    store.resources,
    events,
    'default',
    typed({ entity: { metadata: { name: 'switch-1' }, subscriptions: ['net'] }, check: { metadata: { name: 'ping' }, status: 2, output: 'down' } }),
    NOW,
    'alice',
    open,
  );
  const event = stored(answer);
  assert.match(event.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual([event.metadata.created_by, event.check.metadata.created_by, event.check.metadata.namespace], ['alice', 'alice', 'default']);
  const entity = store.resources.getEntity('default', 'switch-1')!;
  assert.deepEqual([entity.entity_class, entity.subscriptions, entity.metadata?.created_by], ['proxy', ['net', 'entity:switch-1'], 'alice']);
  assert.equal(store.resources.getEvent('default', 'switch-1', 'ping')?.check?.output, 'down');
});

test("a check's proxy_entity_name names the entity; a stored entity replaces the posted one", async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  store.resources.putEntity('default', 'db-1', { entity_class: 'proxy', metadata: { name: 'db-1', namespace: 'default', labels: { kept: 'yes' } } });
  const event = stored(
    await publishEvent(
      store.resources,
      events,
      'default',
      typed({ entity: { metadata: { name: 'poller' } }, check: { metadata: { name: 'sql' }, proxy_entity_name: 'db-1', status: 0 } }),
      NOW,
      undefined,
      open,
    ),
  );
  assert.deepEqual([event.entity.metadata.name, event.entity.metadata.labels], ['db-1', { kept: 'yes' }]);
  assert.equal(store.resources.getEntity('default', 'poller'), null);
});

test('an invalid event is answered with the problem; past the entity limit a new entity is refused as limited', async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  const invalid = await publishEvent(store.resources, events, 'default', typed({ check: { metadata: { name: 'c' } } }), NOW, undefined, open);
  assert.equal(invalid.ok, false);
  assert.match(!invalid.ok ? invalid.message : '', /entity/);
  const limited = await publishEvent(
    store.resources,
    events,
    'default',
    typed({ entity: { metadata: { name: 'new-proxy' } }, check: { metadata: { name: 'c' }, status: 0 } }),
    NOW,
    undefined,
    () => 'the entity limit is reached',
  );
  assert.deepEqual(limited, { ok: false, message: 'the entity limit is reached', limited: true });
  assert.equal(store.resources.getEntity('default', 'new-proxy'), null);
});

test('an event a silence applies to lists it and is silenced', async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  store.resources.putResource('Silenced', 'default', 'entity:web-1:*', {
    metadata: { name: 'entity:web-1:*', namespace: 'default' },
    subscription: 'entity:web-1',
    check: null,
    begin: NOW - 10,
    expire: -1,
  });
  const event = stored(
    await publishEvent(
      store.resources,
      events,
      'default',
      typed({ entity: { metadata: { name: 'web-1' } }, check: { metadata: { name: 'disk' }, status: 2 } }),
      NOW,
      undefined,
      open,
    ),
  );
  assert.deepEqual([event.check.silenced, event.check.is_silenced], [['entity:web-1:*'], true]);
});

test("a sender's replay (same id and sequence) changes nothing, on either path; metrics are passed on, not stored", async (t) => {
  const store = sqliteStore(t);
  const events = new EmbeddedEventStore(store.resources);
  const body = (output: string, fields: Record<string, unknown> = {}) =>
    typed({
      id: '11111111-2222-4333-8444-555555555555',
      sequence: 3,
      entity: { metadata: { name: 'web-1' } },
      check: { metadata: { name: 'disk' }, status: 1, output },
      ...fields,
    });
  const first = stored(
    publishEventSync(store.resources, events, 'default', body('first', { metrics: { points: [{ name: 'm', value: 1 }] } }), NOW, undefined, open),
  );
  assert.deepEqual(first.metrics.points, [{ name: 'm', value: 1 }]);
  assert.equal((store.resources.getEvent('default', 'web-1', 'disk') as Record<string, any>).metrics, undefined);
  const replayed = await publishEvent(store.resources, events, 'default', body('replayed'), NOW + 1, undefined, open);
  assert.deepEqual([replayed.ok && replayed.replay, stored(replayed).check.output], [true, 'first']);
  const replayedSync = publishEventSync(store.resources, events, 'default', body('again'), NOW + 2, undefined, open);
  assert.deepEqual([replayedSync.ok && replayedSync.replay, stored(replayedSync).check.output], [true, 'first']);
  const next = stored(await publishEvent(store.resources, events, 'default', body('next', { sequence: 4 }), NOW + 3, undefined, open));
  assert.equal(next.check.output, 'next');
  assert.equal(next.check.history.length, 2);
});

test("the rows read ahead: each event's row, and its entity's unless an agent's own; unnamed ones are skipped", () => {
  assert.deepEqual(
    v2RowsOf([
      { namespace: 'a', body: typed({ entity: { metadata: { name: 'proxy-1' } }, check: { metadata: { name: 'c1' } } }) },
      { namespace: 'a', body: typed({ entity: { entity_class: 'agent', metadata: { name: 'agent-1' } }, check: { metadata: { name: 'c2' } } }) },
      {
        namespace: 'b',
        body: typed({ entity: { entity_class: 'agent', metadata: { name: 'agent-2' } }, check: { metadata: { name: 'c3' }, proxy_entity_name: 'far' } }),
      },
      { namespace: 'b', body: typed({ entity: { metadata: { name: 'no-check' } } }) },
      { namespace: 'b', body: typed({ check: { metadata: { name: 'no-entity' } } }) },
    ]),
    {
      events: [
        ['a', 'proxy-1', 'c1'],
        ['a', 'agent-1', 'c2'],
        ['b', 'far', 'c3'],
      ],
      entities: [
        ['a', 'proxy-1'],
        ['b', 'far'],
        ['b', 'no-check'],
      ],
    },
  );
});
