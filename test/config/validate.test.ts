import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaProblems } from '../../src/config/schemas.js';
import { validateSettings } from '../../src/config/validate.js';

const messages = (name: Parameters<typeof schemaProblems>[0], value: unknown) => schemaProblems(name, value).map((p) => p.message);
const base = { name: 'x', command: 'true', interval: 10, subscribers: [] };

test('an empty check definition yields exactly the five legacy messages', () => {
  assert.deepEqual(messages('check', {}), [
    'check name must be a string',
    'check name cannot contain spaces or special characters',
    'either check command or extension must be set',
    'check interval must be an integer greater than 0',
    'check subscribers must be an array',
  ]);
});

test('every problem is reported, each with its JSON path', () => {
  const problems = schemaProblems('check', { name: 'a b', command: 1, interval: 0, subscribers: ['ok', ''], ttl: -1 });
  assert.deepEqual(problems, [
    { path: '/name', message: 'check name cannot contain spaces or special characters' },
    { path: '/command', message: 'check command must be a string' },
    { path: '/interval', message: 'check interval must be an integer greater than 0' },
    { path: '/subscribers', message: 'check subscribers must each be a string' },
    { path: '/ttl', message: 'check ttl must be greater than 0' },
  ]);
});

test('command and extension together fail the exclusive-or rule', () => {
  assert.deepEqual(messages('check', { ...base, extension: 'x' }), ['either check command or extension must be set']);
});

test('publish false needs no interval; cron replaces interval', () => {
  assert.deepEqual(messages('check', { name: 'x', command: 'c', publish: false, standalone: true }), []);
  assert.deepEqual(messages('check', { name: 'x', command: 'c', cron: '*/5 * * * *', subscribers: [] }), []);
  assert.deepEqual(messages('check', { name: 'x', command: 'c', cron: '0 0 * * * 2030', subscribers: [] }), []);
  assert.deepEqual(messages('check', { name: 'x', command: 'c', cron: '@daily', subscribers: [] }), []);
  assert.deepEqual(messages('check', { name: 'x', command: 'c', cron: '* * * *', subscribers: [] }), ['check cron string must use the cron syntax']);
  assert.deepEqual(messages('check', { name: 'x', command: 'c', cron: '@reboot', subscribers: [] }), ['check cron string must use the cron syntax']);
  assert.deepEqual(messages('check', { name: 'x', command: 'c', cron: 5, subscribers: [] }), [
    'check cron must be a string',
    'check cron string must use the cron syntax',
  ]);
});

test('falsy-but-set attributes are validated as legacy does (ttl 0, source "")', () => {
  assert.deepEqual(messages('check', { ...base, ttl: 0 }), ['check ttl must be greater than 0']);
  assert.deepEqual(messages('check', { ...base, source: '' }), ['check source cannot contain spaces, special characters, or invalid tokens']);
  assert.deepEqual(messages('check', { ...base, ttl: false, aggregate: false }), []);
  assert.deepEqual(messages('check', { ...base, command: null, extension: 'e' }), []);
});

test('source accepts one token and rejects the reference examples', () => {
  for (const ok of ['switch-42', ':::token:::', ':::token|default:::', 'my:::token|default:::value']) {
    assert.deepEqual(messages('check', { ...base, source: ok }), [], ok);
  }
  for (const bad of ['switch-%42%', 'switch\n42', 'to:ken', 'to:::ken', '::token::', ':::token', 'token|']) {
    assert.deepEqual(messages('check', { ...base, source: bad }), ['check source cannot contain spaces, special characters, or invalid tokens'], bad);
  }
});

test('hook keys, commands and timeouts', () => {
  assert.deepEqual(
    messages('check', {
      ...base,
      hooks: { '0': { command: 'a' }, '255': { command: 'a' }, 'non-zero': { command: 'b' }, critical: { command: 'c', timeout: 1.5, stdin: true } },
    }),
    [],
  );
  assert.deepEqual(schemaProblems('check', { ...base, hooks: { '256': { command: 'x' } } }), [
    { path: '/hooks/256', message: "check hook key must be a severity, status, or 'non-zero'" },
  ]);
  assert.deepEqual(messages('check', { ...base, hooks: { zero: { command: 'x' } } }), ["check hook key must be a severity, status, or 'non-zero'"]);
  assert.deepEqual(messages('check', { ...base, hooks: { ok: {} } }), ['check hook command must be a string']);
  assert.deepEqual(messages('check', { ...base, hooks: { ok: { command: 'x', timeout: 'a', stdin: 1 } } }), [
    'check hook timeout must be numeric',
    'check hook stdin must be boolean',
  ]);
  assert.deepEqual(messages('check', { ...base, hooks: [] }), ['check hooks must be a hash']);
});

test('subdue windows: days, weekday names, parsed times', () => {
  const subdue = (s: unknown) => messages('check', { ...base, subdue: s });
  assert.deepEqual(subdue({ days: { all: [{ begin: '5:00 PM', end: '8:00 AM' }], monday: [{ begin: '22:30 UTC', end: '10pm PST' }] } }), []);
  assert.deepEqual(subdue('x'), ['check subdue must be a hash']);
  assert.deepEqual(subdue({ begin: '5PM', end: '6PM', days: ['monday'] }), ['check subdue days must be a hash']);
  assert.deepEqual(subdue({ days: {} }), ["check subdue days must include at least one day of the week or 'all'"]);
  assert.deepEqual(subdue({ days: { mon: [] } }), ["check subdue days must be valid days of the week or 'all'"]);
  assert.deepEqual(subdue({ days: { friday: 'x', monday: [] } }), [
    'check subdue days friday must be in an array',
    'check subdue days monday must include at least one time window',
  ]);
  assert.deepEqual(subdue({ days: { all: [3, { begin: 'noon', end: '5pm' }, { begin: '25:00', end: '1am' }, { begin: '1am' }] } }), [
    'check subdue day time window must be a hash',
    'check subdue day time window begin and end times must be valid',
    'check subdue day time window begin and end times must be valid',
    'check subdue day time window begin and end times must be valid',
  ]);
});

test('proxy_requests, flap thresholds, aggregates, truncation', () => {
  assert.deepEqual(messages('check', { ...base, proxy_requests: { client_attributes: {} } }), []);
  assert.deepEqual(messages('check', { ...base, proxy_requests: 'x' }), ['check proxy_requests must be a hash']);
  assert.deepEqual(messages('check', { ...base, proxy_requests: { client_attributes: [], splay: 'y', splay_coverage: 100 } }), [
    'check proxy_requests client_attributes must be a hash',
    'check proxy_requests splay must be boolean',
    'check proxy_requests splay_coverage must be an integer greater than 0 and less than 100',
  ]);
  assert.deepEqual(messages('check', { ...base, low_flap_threshold: 5 }), ['check high flap threshold must be an integer']);
  assert.deepEqual(messages('check', { ...base, high_flap_threshold: 'x' }), [
    'check low flap threshold must be an integer',
    'check high flap threshold must be an integer',
  ]);
  assert.deepEqual(messages('check', { ...base, aggregates: [':::attr|def:::-checks'], aggregate: true }), []);
  assert.deepEqual(messages('check', { ...base, aggregates: 'x', aggregate: 5 }), [
    'check aggregates must be an array',
    'check aggregate must be a string (name) or boolean',
  ]);
  assert.deepEqual(messages('check', { ...base, truncate_output: 'y', truncate_output_length: 0 }), [
    'check truncate_output must be boolean',
    'check truncate_output_length must be an integer greater than 0',
  ]);
});

test('client, handler, filter, mutator and top-level rules', () => {
  const violations = validateSettings({
    client: { name: 'bad name', address: 1, subscriptions: ['a', ''] },
    sensu: { spawn: { limit: 0 }, keepalives: { thresholds: {} } },
    checks: 'nope',
    handlers: { h1: { type: 'bogus' }, h2: 'x', h3: { type: 'tcp', socket: {} }, h4: { type: 'pipe', severities: ['ok', 'fatal'] } },
    filters: { f: { negate: 'no' } },
    mutators: { m: { timeout: 'x' } },
  }).map((v) => `/${v.segments.join('/')}: ${v.message}`);
  assert.deepEqual(violations, [
    '/sensu/spawn/limit: sensu spawn limit must be greater than 0',
    '/checks: checks must be a hash',
    '/filters/f/attributes: filter attributes must be a hash',
    '/filters/f/negate: filter negate must be boolean',
    '/mutators/m/command: mutator command must be a string',
    '/mutators/m/timeout: mutator timeout must be numeric',
    '/handlers/h1/type: unknown handler type',
    '/handlers/h2: handler must be a hash',
    '/handlers/h3/socket/host: handler host must be a string',
    '/handlers/h3/socket/port: handler port must be an integer',
    '/handlers/h4/command: handler command must be a string',
    '/handlers/h4/severities: handler severities are invalid',
    '/client/name: client name cannot contain spaces or special characters',
    '/client/address: client address must be a string',
    '/client/subscriptions: client subscriptions must each be a non empty string',
  ]);
});

test('check results follow the legacy result rules', () => {
  assert.deepEqual(messages('result', { name: 'x', output: 'o', status: 0, executed: 1 }), []);
  assert.deepEqual(messages('result', { name: 'x y', status: 'a', executed: 1.5 }), [
    'check output must be a string',
    'check status must be an integer',
    'check executed timestamp must be an integer',
    'check name cannot contain spaces or special characters',
  ]);
});

test('eval: expressions outside the safe subset are refused, naming the expression; the subset passes', () => {
  assert.deepEqual(schemaProblems('filter', { attributes: { check: { status: 'eval: value == 2' }, occurrences: 'eval: value % 515 == 0' } }), []);
  assert.deepEqual(schemaProblems('filter', { attributes: { check: { status: 'eval: `rm -rf /`' } } }), [
    { path: '/attributes', message: 'filter attributes eval expression is not supported: "eval: `rm -rf /`": unexpected character \'`\' at 1' },
  ]);
  assert.deepEqual(messages('proxy-requests', { client_attributes: { subscriptions: 'eval: Kernel.exit' } }), [
    'check proxy_requests client_attributes eval expression is not supported: "eval: Kernel.exit": unknown name \'Kernel\' at 1: only value (and block parameters) can be read',
  ]);
});

test('output_metric_tags: the list of {name, value} and the hash pass; anything else is named', () => {
  const tagged = (tags: unknown) => messages('check', { ...base, output_metric_tags: tags });
  assert.deepEqual(
    tagged([
      { name: 'env', value: 'prod' },
      { name: 'port', value: 8080 },
    ]),
    [],
  );
  assert.deepEqual(tagged({ env: 'prod', port: 8080 }), []);
  assert.deepEqual(tagged([]), []);
  assert.deepEqual(tagged(null), []);
  const wrong = ['check output_metric_tags must be a list of {name, value} or a hash'];
  for (const bad of [
    'env=prod',
    3,
    [{ name: 'env' }],
    [{ value: 'prod' }],
    [{ name: '', value: 'x' }],
    ['env'],
    [{ name: 'env', value: { nested: 1 } }],
    { env: ['a'] },
    { env: { a: 1 } },
  ]) {
    assert.deepEqual(tagged(bad), wrong, JSON.stringify(bad));
  }
  assert.deepEqual(schemaProblems('check', { ...base, output_metric_tags: 'x' })[0]?.path, '/output_metric_tags');
});
