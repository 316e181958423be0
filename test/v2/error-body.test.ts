// The message of an error body a Sensu Go backend answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorBodyMessage } from '../../src/v2/error-body.js';

test('the message of {"message","code"} or of the middleware\'s {"Message","Code"}', () => {
  assert.equal(errorBodyMessage('{"message":"resource not found","code":5}'), 'resource not found');
  assert.equal(errorBodyMessage('{"Message":"request body too large","Code":13}'), 'request body too large');
  assert.equal(errorBodyMessage('{"message":"","Message":"second"}'), '', 'the lower-case field first, even empty');
});

test('anything else: the raw text, trimmed', () => {
  assert.equal(errorBodyMessage('  bad gateway\n'), 'bad gateway');
  assert.equal(errorBodyMessage('{"message":42}'), '{"message":42}');
  assert.equal(errorBodyMessage('null'), 'null');
  assert.equal(errorBodyMessage('{"error":"x"}'), '{"error":"x"}');
  assert.equal(errorBodyMessage(''), '');
});
