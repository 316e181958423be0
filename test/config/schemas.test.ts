import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaProblems } from '../../src/config/schemas.js';

const check = { name: 'x', command: 'true', interval: 10, subscribers: [] };

test('a valid value has no problems', () => {
  assert.deepEqual(schemaProblems('check', check), []);
  assert.deepEqual(schemaProblems('client', { name: 'box', address: '10.0.0.1', subscriptions: [] }), []);
});

test('every failing rule gives its legacy message at its JSON pointer, in rule order', () => {
  assert.deepEqual(schemaProblems('client', {}), [
    { path: '/name', message: 'client name must be a string' },
    { path: '/name', message: 'client name cannot contain spaces or special characters' },
    { path: '/address', message: 'client address must be a string' },
    { path: '/subscriptions', message: 'client subscriptions must be an array' },
  ]);
});

test('a null attribute is absent, as legacy has it (a null in a list stays), unless the caller says the value holds no null', () => {
  const withNulls = { ...check, command: null, ttl: null, subdue: { days: { all: [null] } } };
  assert.deepEqual(schemaProblems('check', withNulls), [
    { path: '', message: 'either check command or extension must be set' },
    { path: '/subdue/days/all/0', message: 'check subdue day time window must be a hash' },
  ]);
  assert.deepEqual(
    schemaProblems('check', { ...check, command: null, ttl: null }, true).map((p) => p.path),
    ['/command', '/ttl'],
  );
});

test('the same message at the same place is reported once', () => {
  // -1.5 fails both the integer type and the minimum of one rule.
  assert.deepEqual(schemaProblems('check', { ...check, interval: -1.5 }), [{ path: '/interval', message: 'check interval must be an integer greater than 0' }]);
  assert.deepEqual(schemaProblems('check', { ...check, subscribers: ['', '', 3] }), [
    { path: '/subscribers', message: 'check subscribers must each be a string' },
  ]);
});

test('{key} is the offending key and {detail} what the rule found', () => {
  assert.deepEqual(schemaProblems('check', { ...check, subdue: { days: { monday: 'all day' } } }), [
    { path: '/subdue/days/monday', message: 'check subdue days monday must be in an array' },
  ]);
  const [problem] = schemaProblems('filter', { attributes: { a: 'eval: process.exit()' } });
  assert.equal(problem!.path, '/attributes');
  assert.match(problem!.message, /^filter attributes eval expression is not supported: "eval: process\.exit\(\)": unknown name 'process'/);
});

test('the filter when window is the subdue schema in the filter wording', () => {
  const days = { days: { funday: [{ begin: '1:00 AM', end: '2:00 AM' }] } };
  assert.deepEqual(schemaProblems('when', days), [{ path: '/days/funday', message: "filter when days must be valid days of the week or 'all'" }]);
  assert.deepEqual(schemaProblems('subdue', days), [{ path: '/days/funday', message: "check subdue days must be valid days of the week or 'all'" }]);
});

test('a missing required attribute and a refused key name are located at the attribute and the key', () => {
  const problems = schemaProblems('check', { ...check, hooks: { 'bad key': { command: 1 } } });
  assert.deepEqual(problems, [
    { path: '/hooks/bad key', message: "check hook key must be a severity, status, or 'non-zero'" },
    { path: '/hooks/bad key/command', message: 'check hook command must be a string' },
  ]);
});

test('a refused key holding / or ~ is escaped in its pointer, as every other path is', () => {
  const problems = schemaProblems('check', { ...check, hooks: { 'a/b': { command: 'true' } } });
  assert.deepEqual(problems, [{ path: '/hooks/a~1b', message: "check hook key must be a severity, status, or 'non-zero'" }]);
});

test('a refused key holding a % is a problem like any other, never an exception', () => {
  assert.deepEqual(schemaProblems('check', { ...check, hooks: { '%': { command: 'true' } } }), [
    { path: '/hooks/%', message: "check hook key must be a severity, status, or 'non-zero'" },
  ]);
  assert.equal(schemaProblems('check', { ...check, subdue: { days: { '100%': 'x' } } })[0]!.path, '/subdue/days/100%');
});
