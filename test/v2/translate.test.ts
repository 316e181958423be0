import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyEventOf, translateEvent } from '../../src/v2/translate.js';
import { typedEvent } from '../../src/v2/decoded-event.js';

const client = { name: 'web-1', entity_class: 'agent', namespace: 'prod', subscriptions: ['linux'], version: '6.12.0' };

test('legacyEventOf: a v2 event in the legacy shape, the client record as given, statuses as history strings', () => {
  const v2 = {
    id: 'e-1',
    timestamp: 1700000100,
    entity: { metadata: { name: 'web-1', namespace: 'prod' }, entity_class: 'agent' },
    check: {
      metadata: { name: 'disk', namespace: 'prod' },
      command: 'check-disk',
      interval: 60,
      subscriptions: ['linux'],
      handlers: ['mail'],
      ttl: 0,
      proxy_entity_name: '',
      issued: 1700000090,
      executed: 1700000095,
      output: 'disk full',
      status: 2,
      history: [
        { status: 0, executed: 1700000035 },
        { status: 2, executed: 1700000095 },
      ],
      total_state_change: 0,
      occurrences: 1,
      occurrences_watermark: 1,
      last_ok: 1700000035,
      state: 'failing',
      silenced: ['linux:disk'],
      is_silenced: true,
    },
  };
  assert.deepEqual(legacyEventOf(v2, client), {
    id: 'e-1',
    client,
    check: {
      name: 'disk',
      command: 'check-disk',
      interval: 60,
      subscribers: ['linux'],
      handlers: ['mail'],
      issued: 1700000090,
      executed: 1700000095,
      output: 'disk full',
      status: 2,
      history: ['0', '2'],
      total_state_change: 0,
    },
    occurrences: 1,
    occurrences_watermark: 1,
    last_ok: 1700000035,
    last_state_change: null,
    action: 'create',
    timestamp: 1700000100,
    silenced: true,
    silenced_by: ['linux:disk'],
  });
});

test('legacyEventOf: a proxy check names its source; flapping is the legacy action; a check never OK has no last_ok', () => {
  const event = legacyEventOf({ check: { metadata: { name: 'ping' }, proxy_entity_name: 'router-1', status: 1, state: 'flapping', last_ok: 0 } }, client);
  assert.equal(event.check.source, 'router-1');
  assert.equal(event.action, 'flapping');
  assert.equal(event.last_ok, null);
  assert.deepEqual(event.silenced_by, []);
});

test('legacyEventOf reads back what translateEvent wrote: name, status, output, times and history', () => {
  const draft = {
    id: 'l-1',
    client: { name: 'web-1', subscriptions: [] },
    check: { name: 'load', status: 1, output: 'high', issued: 10, executed: 11, interval: 30, subscribers: ['linux'], handlers: ['mail'] },
    occurrences: 2,
    occurrences_watermark: 2,
    last_ok: 5,
    last_state_change: 9,
    action: 'create' as const,
    timestamp: 12,
    silenced: false,
    silenced_by: [],
  };
  const back = legacyEventOf(
    translateEvent(
      draft,
      [
        { status: 0, executed: 5 },
        { status: 1, executed: 11 },
      ],
      'default',
    ),
    draft.client,
  );
  assert.deepEqual(
    [
      back.check.name,
      back.check.status,
      back.check.output,
      back.check.issued,
      back.check.executed,
      back.check.interval,
      back.check.subscribers,
      back.check.handlers,
      back.check.history,
      back.occurrences,
      back.last_ok,
      back.timestamp,
    ],
    ['load', 1, 'high', 10, 11, 30, ['linux'], ['mail'], ['0', '1'], 2, 5, 12],
  );
});

test('translateEvent: a legacy attribute of the wrong type becomes the v2 field’s type, so a Go decoder takes the event', () => {
  const draft = {
    id: 'l-2',
    // What a socket result may carry: numbers as text, a single subscriber, handlers of metrics as one name.
    client: { name: 'web-1', subscriptions: 'linux', hostname: 7, deregistration: { handler: 'gone' } },
    check: {
      name: 'load',
      status: 2,
      output: 'high',
      interval: '60',
      ttl: 'soon',
      timeout: null,
      publish: 'true',
      subscribers: 'linux',
      command: 42,
      duration: '1.5',
      output_metric_handlers: 'influx',
    },
    occurrences: 1,
    occurrences_watermark: 1,
    last_ok: null,
    last_state_change: null,
    action: 'create' as const,
    timestamp: 12,
    silenced: false,
    silenced_by: [],
  };
  const event = translateEvent(draft, [{ status: 2, executed: 11 }], 'default');
  const { check, entity } = event;
  assert.deepEqual(
    [check.interval, check.ttl, check.timeout, check.publish, check.subscriptions, check.command, check.duration, check.output_metric_handlers],
    [60, 0, 0, false, [], undefined, 1.5, null],
  );
  assert.deepEqual([entity.subscriptions, entity.system?.hostname, entity.deregistration], [['entity:web-1'], 'web-1', { handler: 'gone' }]);
  assert.equal(typedEvent(JSON.parse(JSON.stringify(event))).problem, null);
});
