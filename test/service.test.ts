import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailureReport, within } from '../src/service.js';

test('a failure reaches every listener, once, however often it is reported', () => {
  const report = new FailureReport();
  const heard: string[] = [];
  report.listen((error) => heard.push(`a ${error.message}`));
  report.listen((error) => heard.push(`b ${error.message}`));
  report.fail(new Error('first'));
  report.fail(new Error('second'));
  assert.deepEqual(heard, ['a first', 'b first']);
});

test('a listener that comes after the failure hears of it at once', () => {
  const report = new FailureReport();
  const failure = new Error('lost the broker');
  report.fail(failure);
  const heard: Error[] = [];
  report.listen((error) => heard.push(error));
  assert.deepEqual(heard, [failure]);
});

test('no failure, nothing heard', () => {
  const report = new FailureReport();
  let heard = 0;
  report.listen(() => heard++);
  assert.equal(heard, 0);
});

test('within: true for work that settles in time, false for work still going at the deadline', async () => {
  assert.equal(await within(new Promise((resolve) => setTimeout(resolve, 10)), 1000), true);
  assert.equal(await within(new Promise(() => undefined), 30), false);
  assert.equal(await within(Promise.resolve(), -5), true, 'a deadline already past still hears work already done');
});
