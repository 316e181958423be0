import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { filterEvent, occurrencesFilter } from '../../src/handling/index.js';
import type { EventDraft, Handler } from '../../src/legacy/index.js';
import { StateStore } from '../../src/store/index.js';
import { settingsOf } from '../helpers/settings.js';

const log = pino({ level: 'silent' });
const store = StateStore.open(':memory:');

function eventOf(overrides: Partial<EventDraft> & { check?: Record<string, unknown> } = {}): EventDraft {
  return {
    id: 'e1',
    client: { name: 'i-424242', subscriptions: ['test', 'client:i-424242'], environment: 'production' },
    occurrences: 1,
    occurrences_watermark: 1,
    last_ok: null,
    last_state_change: null,
    action: 'create',
    timestamp: 0,
    silenced: false,
    silenced_by: [],
    ...overrides,
    check: { name: 'test', status: 2, output: 'WARNING', history: ['2'], interval: 60, ...(overrides.check ?? {}) },
  };
}

const settings = settingsOf({
  filters: {
    production: { attributes: { client: { environment: 'production' } } },
    not_production: { attributes: { client: { environment: 'production' } }, negate: true },
    eval_filter: { attributes: { occurrences: 'eval: value == :::check.want|3::: || value % 60 == 0' } },
    missing_attribute: { attributes: { check: { team: 'ops' } } },
    outside_window: { attributes: { client: { environment: 'nope' } }, when: { days: { all: [{ begin: '00:00:00', end: '00:00:01' }] } } },
    inside_window: { attributes: { client: { environment: 'nope' } }, when: { days: { all: [{ begin: '00:00:00', end: '23:59:59' }] } } },
  },
});
const noon = Date.parse('2026-11-22T12:00:00');
const ctx = { settings, store, now: noon, log };
const handler = (extra: Record<string, unknown> = {}): Handler => ({ name: 'h', type: 'pipe', command: 'true', ...extra });
const reason = (h: Handler, e: EventDraft) => filterEvent(h, e, ctx)?.message ?? null;

test('filter order and messages: handle false, flapping, severities, silenced', () => {
  assert.equal(reason(handler(), eventOf({ check: { handle: false } })), 'event handling disabled for event');
  assert.equal(reason(handler(), eventOf({ action: 'flapping' })), 'handler does not handle action');
  assert.equal(reason(handler({ handle_flapping: true }), eventOf({ action: 'flapping' })), null);
  assert.equal(reason(handler({ severities: ['critical'] }), eventOf({ check: { status: 1 } })), 'handler does not handle event severity');
  assert.equal(reason(handler({ severities: ['critical'] }), eventOf()), null);
  assert.equal(reason(handler({ severities: [] }), eventOf()), 'handler does not handle event severity', 'an empty list handles nothing');
  assert.equal(reason(handler({ severities: ['unknown'] }), eventOf({ check: { status: 5 } })), null, 'outside 0-2 is unknown');
  assert.equal(reason(handler({ severities: ['unknown'] }), eventOf({ check: { status: -1 } })), null, 'a negative status is unknown, not wrapped');
  // Resolves: handled when any history status is a listed severity.
  assert.equal(
    reason(handler({ severities: ['critical'] }), eventOf({ action: 'resolve', check: { status: 0, history: ['1', '0'] } })),
    'handler does not handle event severity',
  );
  assert.equal(reason(handler({ severities: ['critical'] }), eventOf({ action: 'resolve', check: { status: 0, history: ['1', '2', '0'] } })), null);
  assert.equal(reason(handler(), eventOf({ silenced: true, silenced_by: ['test:*'] })), 'handler is silenced');
  assert.equal(reason(handler({ handle_silenced: true }), eventOf({ silenced: true, silenced_by: ['test:*'] })), null);
});

test('native filters: inclusive, negate, eval with a token default, missing attribute, when windows', () => {
  assert.equal(reason(handler({ filters: ['production'] }), eventOf()), null);
  assert.equal(reason(handler({ filters: ['production'] }), eventOf({ client: { name: 'x', environment: 'staging' } })), 'event was filtered');
  assert.equal(reason(handler({ filter: 'not_production' }), eventOf()), 'event was filtered');
  assert.equal(reason(handler({ filter: 'not_production' }), eventOf({ client: { name: 'x', environment: 'staging' } })), null);
  assert.equal(reason(handler({ filters: ['eval_filter'] }), eventOf({ occurrences: 3 })), null);
  assert.equal(reason(handler({ filters: ['eval_filter'] }), eventOf({ occurrences: 120 })), null);
  assert.equal(reason(handler({ filters: ['eval_filter'] }), eventOf({ occurrences: 4 })), 'event was filtered');
  assert.equal(reason(handler({ filters: ['missing_attribute'] }), eventOf()), 'event was filtered', 'a missing attribute does not match');
  assert.equal(reason(handler({ filters: ['outside_window'] }), eventOf()), null, 'outside its window the filter does not apply');
  assert.equal(reason(handler({ filters: ['inside_window'] }), eventOf()), 'event was filtered');
  assert.equal(reason(handler({ filters: ['no_such_filter'] }), eventOf()), null, 'an unknown filter does not filter');
  const first = filterEvent(handler({ filters: ['production', 'not_production'] }), eventOf(), ctx);
  assert.equal(first?.filter, 'not_production', 'the first filter that filters is named');
});

test('occurrences filter: the reference vectors', () => {
  const ev = (occurrences: number, check: Record<string, unknown>, action: EventDraft['action'] = 'create', watermark = occurrences) =>
    eventOf({ occurrences, occurrences_watermark: watermark, action, check });
  assert.equal(occurrencesFilter(ev(3, { interval: 2, occurrences: 3 })), null);
  assert.equal(occurrencesFilter(ev(9, { interval: 2, occurrences: 3 })), 'only handling every 900 occurrences');
  assert.equal(occurrencesFilter(ev(9, { interval: 2, occurrences: 3, refresh: 10 })), 'only handling every 5 occurrences');
  assert.equal(occurrencesFilter(ev(9, { interval: 2, occurrences: 3, refresh: 12 })), null);
  assert.equal(occurrencesFilter(ev(5, { interval: 1, occurrences: 2 }, 'create', 1)), 'only handling every 1800 occurrences');
  assert.equal(occurrencesFilter(ev(5, { interval: 1, occurrences: 2 }, 'resolve', 1)), null, 'a resolve passes when occurrences >= n');
  assert.equal(occurrencesFilter(ev(1, { occurrences: 2 })), 'not enough occurrences');
  assert.equal(occurrencesFilter(ev(1, { occurrences: 2 }, 'resolve', 1)), 'not enough occurrences', 'a resolve below the watermark is filtered');
  assert.equal(occurrencesFilter(ev(1, { occurrences: 2 }, 'resolve', 3)), null, 'a resolve after enough occurrences passes');
  assert.equal(occurrencesFilter(ev(1, { occurrences: '2' })), null, 'a non-integer setting disables it (1.2.0)');
  assert.equal(occurrencesFilter(ev(62, { occurrences: 2, interval: 60 }, 'flapping')), null, 'n + 60 with refresh 1800 at 60 s');
  assert.equal(occurrencesFilter(ev(31, { occurrences: 1, interval: 60 })), null, 'n + 30');
  assert.equal(occurrencesFilter(ev(30, { occurrences: 1, interval: 60 })), 'only handling every 30 occurrences');
  // Listed by a handler, it filters through filterEvent with the legacy message and its reason.
  const filtered = filterEvent(handler({ filters: ['occurrences'] }), ev(1, { occurrences: 2 }), ctx);
  assert.deepEqual(filtered, { message: 'event was filtered', filter: 'occurrences', reason: 'not enough occurrences' });
});

test('check_dependencies: filtered while a dependency (check, client/check, subscription/check) has an event', () => {
  const h = handler({ filters: ['check_dependencies'] });
  const deps = (dependencies: string[]) => eventOf({ check: { dependencies } });
  assert.equal(reason(h, deps(['ping'])), null);
  store.putEvent('i-424242', 'ping', { client: { name: 'i-424242' }, check: { name: 'ping' } });
  assert.equal(reason(h, deps(['ping'])), 'event was filtered');
  assert.equal(reason(h, deps(['db-1/mysql'])), null);
  store.putEvent('db-1', 'mysql', { client: { name: 'db-1', subscriptions: ['db'] }, check: { name: 'mysql' } });
  assert.equal(reason(h, deps(['db-1/mysql'])), 'event was filtered');
  assert.equal(reason(h, deps(['subscription:db/mysql'])), 'event was filtered');
  assert.equal(reason(h, deps(['subscription:web/mysql'])), null);
  assert.equal(reason(handler(), deps(['ping'])), null, 'not applied unless the handler lists it');
});
