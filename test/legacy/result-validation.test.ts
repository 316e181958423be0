// A legacy result as the intake prepares it: defaults filled in, then the result rules; the first failure is the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareResult } from '../../src/legacy/result-validation.js';

test('status defaults to 0 and executed to now; everything else is kept as sent', () => {
  const prepared = prepareResult({ name: 'disk', output: 'ok', extra: { a: 1 } }, 1_700_000_000);
  assert.deepEqual(prepared, { ok: true, check: { name: 'disk', output: 'ok', extra: { a: 1 }, status: 0, executed: 1_700_000_000 } });
  const sent = { name: 'disk', output: 'warn', status: 1, executed: 5 };
  assert.deepEqual(prepareResult(sent, 9), { ok: true, check: sent });
  assert.deepEqual(prepareResult({ name: 'disk', output: '', status: null, executed: null }, 9), {
    ok: true,
    check: { name: 'disk', output: '', status: 0, executed: 9 },
  });
});

test('the input is not changed', () => {
  const sent = { name: 'disk', output: 'ok' };
  prepareResult(sent, 1);
  assert.deepEqual(sent, { name: 'disk', output: 'ok' });
});

test('not an object, too deep, or against a rule: refused with the first reason', () => {
  for (const value of [null, [], 'x', 3]) assert.deepEqual(prepareResult(value, 1), { ok: false, message: 'check result must be a JSON object' });
  let deep: unknown = 'x';
  for (let i = 0; i < 101; i++) deep = { deep };
  assert.deepEqual(prepareResult({ name: 'disk', output: 'ok', deep }, 1), { ok: false, message: 'JSON nested deeper than 100 levels' });
  assert.deepEqual(prepareResult({ name: 'disk', output: 7 }, 1), { ok: false, message: 'check output must be a string' });
  assert.deepEqual(prepareResult({ name: 'a disk', output: 'ok' }, 1), { ok: false, message: 'check name cannot contain spaces or special characters' });
  assert.deepEqual(prepareResult({ name: 'disk', output: 'ok', status: 'bad' }, 1), { ok: false, message: 'check status must be an integer' });
});
