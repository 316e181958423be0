import { test } from 'node:test';
import assert from 'node:assert/strict';
import { truncateOutput, totalStateChange, buildEvent, registryUpdate, isFlapping } from '../../src/legacy/event-model.js';

test('truncation vectors (exactly len characters, where legacy kept one more)', () => {
  assert.equal(truncateOutput('foo\n'), 'foo');
  assert.equal(truncateOutput('\nfoo'), '\n...');
  assert.equal(truncateOutput('\n\n'), '\n\n');
  assert.equal(truncateOutput('foo\nbar\nbaz'), 'foo\n...');
  assert.equal(truncateOutput('a'.repeat(256)), 'a'.repeat(255) + '\n...');
  assert.equal(truncateOutput('a'.repeat(255)), 'a'.repeat(255));
  assert.equal(truncateOutput('abcdefghijkl', 5), 'abcde\n...');
  assert.equal(truncateOutput('x\ny'), 'x\n...');
});

test('total_state_change vectors', () => {
  const h = (...parts: number[][]) => parts.flat().map(String);
  const rep = (v: number, n: number) => Array<number>(n).fill(v);
  assert.equal(totalStateChange(Array.from({ length: 21 }, (_, i) => String(i % 2 ? 2 : 0))), 101);
  assert.equal(totalStateChange(h(rep(0, 20), [2])), 6);
  assert.equal(totalStateChange(h([2], rep(0, 20))), 4);
  assert.equal(totalStateChange(h(rep(0, 10), [2], rep(0, 10))), 10);
  assert.equal(totalStateChange(h([0, 1, 2, 1, 0], rep(0, 16))), 17);
  assert.equal(totalStateChange(h(rep(0, 21))), 0);
  assert.equal(totalStateChange(h(rep(0, 19), [1, 2])), 11);
  assert.equal(totalStateChange(h(rep(0, 20))), 0);
});

const ids = () => {
  let n = 0;
  return () => `id-${++n}`;
};

test('occurrences: two identical warnings give 2/2; then a critical gives 1/2 with the same id', () => {
  const newId = ids();
  const client = { name: 'c' };
  const first = buildEvent({ client, check: { name: 'x', status: 1 }, history: ['1'], lastOk: null, stored: null, now: 1, newId });
  assert.deepEqual([first.occurrences, first.occurrences_watermark, first.action], [1, 1, 'create']);
  const second = buildEvent({ client, check: { name: 'x', status: 1 }, history: ['1', '1'], lastOk: null, stored: first, now: 2, newId });
  assert.deepEqual([second.occurrences, second.occurrences_watermark, second.id], [2, 2, first.id]);
  const third = buildEvent({ client, check: { name: 'x', status: 2 }, history: ['1', '1', '2'], lastOk: null, stored: second, now: 3, newId });
  assert.deepEqual([third.occurrences, third.occurrences_watermark, third.id, third.last_state_change], [1, 2, first.id, 3]);
  const ok = buildEvent({ client, check: { name: 'x', status: 0 }, history: ['1', '1', '2', '0'], lastOk: 4, stored: third, now: 4, newId });
  assert.deepEqual([ok.action, ok.occurrences, ok.id], ['resolve', 1, first.id]);
  assert.deepEqual(registryUpdate(ok), { update: 'remove', process: true });
});

test('auto_resolve false keeps the event; force_resolve removes it; OK metrics are processed every time', () => {
  const stored = { id: 'e', action: 'create' as const, occurrences: 3 };
  const keep = buildEvent({ client: {}, check: { name: 'x', status: 0, auto_resolve: false }, history: ['2', '0'], lastOk: 1, stored, now: 5, newId: ids() });
  assert.deepEqual(registryUpdate(keep), { update: 'none', process: false });
  const forced = buildEvent({
    client: {},
    check: { name: 'x', status: 0, auto_resolve: false, force_resolve: true },
    history: ['2', '0'],
    lastOk: 1,
    stored,
    now: 5,
    newId: ids(),
  });
  assert.deepEqual(registryUpdate(forced), { update: 'remove', process: true });
  const metric = buildEvent({ client: {}, check: { name: 'm', status: 0, type: 'metric' }, history: ['0'], lastOk: 1, stored: null, now: 5, newId: ids() });
  assert.deepEqual([metric.action, registryUpdate(metric)], ['create', { update: 'none', process: true }]);
  const plainOk = buildEvent({ client: {}, check: { name: 'o', status: 0 }, history: ['0'], lastOk: 1, stored: null, now: 5, newId: ids() });
  assert.deepEqual(registryUpdate(plainOk), { update: 'none', process: false });
});

test('flap detection needs both integer thresholds; holds while above low', () => {
  assert.equal(isFlapping({ low_flap_threshold: 5, high_flap_threshold: 20 }, 20, false), true);
  assert.equal(isFlapping({ low_flap_threshold: 5, high_flap_threshold: 20 }, 19, false), false);
  assert.equal(isFlapping({ low_flap_threshold: 5, high_flap_threshold: 20 }, 6, true), true);
  assert.equal(isFlapping({ low_flap_threshold: 5, high_flap_threshold: 20 }, 5, true), false);
  assert.equal(isFlapping({ high_flap_threshold: 20 }, 50, false), false);
});
