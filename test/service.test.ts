import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailureReport } from '../src/service.js';

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
