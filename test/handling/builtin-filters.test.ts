// The built-in filters: legacy's occurrences extension and Sensu Go's is_incident, not_silenced and has_metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_FILTERS, occurrencesFilter, V2_BUILT_IN_FILTERS } from '../../src/handling/builtin-filters.js';
import type { EventDraft } from '../../src/legacy/index.js';

function event(check: Record<string, unknown>, occurrences: number, action: EventDraft['action'] = 'create', watermark = occurrences): EventDraft {
  return {
    id: 'id',
    client: { name: 'web' },
    check: { name: 'disk', status: 2, ...check },
    occurrences,
    occurrences_watermark: watermark,
    last_ok: null,
    last_state_change: null,
    action,
    timestamp: 0,
    silenced: false,
    silenced_by: [],
  };
}

test('occurrences: filtered until the check has happened `occurrences` times, then every refresh/interval after', () => {
  const check = { occurrences: 3, interval: 60, refresh: 180 };
  const reasons = [1, 2, 3, 4, 5, 6, 7].map((n) => occurrencesFilter(event(check, n)));
  assert.deepEqual(reasons, [
    'not enough occurrences',
    'not enough occurrences',
    null,
    'only handling every 3 occurrences',
    'only handling every 3 occurrences',
    null,
    'only handling every 3 occurrences',
  ]);
});

test('occurrences: defaults of 1 occurrence, a 1800 s refresh and a 60 s interval', () => {
  assert.equal(occurrencesFilter(event({}, 1)), null);
  assert.equal(occurrencesFilter(event({}, 2)), 'only handling every 30 occurrences');
  assert.equal(occurrencesFilter(event({}, 31)), null);
  assert.equal(occurrencesFilter(event({ interval: 0 }, 2)), 'only handling every 30 occurrences', 'an interval of 0 counts as 60');
  assert.equal(occurrencesFilter(event({ refresh: 30 }, 5)), null, 'a refresh shorter than the interval handles every one');
});

test('occurrences: a resolution passes once the watermark reached the threshold; non-integer settings disable it', () => {
  assert.equal(occurrencesFilter(event({ occurrences: 3 }, 1, 'resolve', 3)), null);
  assert.equal(occurrencesFilter(event({ occurrences: 3 }, 1, 'resolve', 2)), 'not enough occurrences');
  assert.equal(occurrencesFilter(event({ occurrences: '3' }, 1, 'resolve', 0)), null);
  assert.equal(occurrencesFilter(event({ occurrences: 2.5 }, 1)), null);
  assert.equal(occurrencesFilter(event({ refresh: 'hourly' }, 2)), null);
  assert.equal(occurrencesFilter(event({ occurrences: 2 }, 4, 'flapping')), 'only handling every 30 occurrences');
});

test('the built-in v2 filters and the names of the legacy extensions', () => {
  const filter = (name: string) => V2_BUILT_IN_FILTERS.get(name)!;
  assert.equal(filter('is_incident')({ check: { status: 1 } }), true);
  assert.equal(filter('is_incident')({ check: { status: 0, history: [{ status: 0 }, { status: 0 }] } }), false);
  assert.equal(filter('is_incident')({ check: { status: 0, history: [{ status: 2 }, { status: 0 }] } }), true, 'a resolution');
  assert.equal(filter('is_incident')({ metrics: {} }), false, 'a metrics-only event');
  assert.equal(filter('not_silenced')({ check: { is_silenced: true } }), false);
  assert.equal(filter('not_silenced')({ check: {} }), true);
  assert.equal(filter('has_metrics')({ metrics: { points: [] } }), true);
  assert.equal(filter('has_metrics')({ check: {} }), false);
  assert.deepEqual([...V2_BUILT_IN_FILTERS.keys()], ['is_incident', 'not_silenced', 'has_metrics']);
  assert.deepEqual([...EXTENSION_FILTERS], ['occurrences', 'check_dependencies']);
});
