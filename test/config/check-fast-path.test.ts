import { test } from 'node:test';
import assert from 'node:assert/strict';
import { surelyValidCheck } from '../../src/config/check-fast-path.js';
import { schemaProblems } from '../../src/config/schemas.js';
import { validators } from '../../src/config/schema-validators.js';

const window = { begin: '10:00 PM', end: '6:00 AM' };
// Per attribute, the usual value first, then values the check schema accepts or refuses; `undefined` leaves the attribute out.
const VALUES: Record<string, unknown[]> = {
  name: ['disk', 'a.b-c_1', 'a b', '', 7, 'é', 'x/y'],
  command: ['true', '', 5, ['x'], undefined],
  timeout: [30, 1.5, -1, '30', true, Infinity, undefined],
  stdin: [true, false, 'yes', 0, undefined],
  publish: [true, false, 'no', 0, undefined],
  interval: [60, 0, -5, 1.5, '60', 1e21, Infinity, undefined],
  standalone: [true, false, 'true', undefined],
  subscribers: [[], ['linux'], [''], [1], 'linux', {}, undefined],
  handler: ['default', 1, '', undefined],
  handlers: [['default'], [], [''], 'default', [2], undefined],
  subdue: [
    false,
    true,
    { days: { all: [window] } },
    { days: { monday: [window], friday: [{ begin: '1:00 AM', end: '2:00 AM' }] } },
    { days: {} },
    { days: { funday: [window] } },
    { days: { all: [] } },
    { days: { all: [{ begin: '25:00 PM', end: 'x' }] } },
    { days: { all: [window] }, exceptions: [{ begin: '2026-01-01 10:00 AM', end: '2026-01-02 10:00 AM' }] },
    { days: 'all' },
    { days: { all: 'x' } },
    { days: { all: ['x'] } },
    { days: { all: [{ begin: '10:00 PM' }] } },
    { days: { saturday: [window] }, other: 1 },
    { other: 1 },
    'x',
    undefined,
  ],
  hooks: [
    false,
    { critical: { command: 'ps aux' } },
    { critical: { command: 'ps', timeout: 10, stdin: true }, 'non-zero': { command: 'x' }, '2': { command: 'y' } },
    { '256': { command: 'x' } },
    { ok: { command: 1 } },
    { ok: { command: 'x', timeout: '1' } },
    { ok: { command: 'x', stdin: 'no' } },
    { ok: { command: 'x', secrets: [] } },
    { ok: { timeout: 1 } },
    { ok: 'x' },
    [],
    'x',
    undefined,
  ],
  extension: [undefined, 'x', 3, undefined],
  cron: [undefined, '*/5 * * * *', '* * * *', undefined],
  ttl: [undefined, 10, -1, undefined],
  source: [undefined, 'a b', 'web', undefined],
  output_metric_tags: [undefined, { a: 'b' }, 5, undefined],
};

// A fixed sequence: the same checks on every run.
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function generated(count: number): Record<string, unknown>[] {
  const next = random(41);
  const checks: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const check: Record<string, unknown> = {};
    for (const [key, values] of Object.entries(VALUES)) {
      // Mostly valid values, so that many checks pass and the fast path is exercised.
      const value = next() < 0.75 ? values[0] : values[Math.floor(next() * values.length)];
      if (value !== undefined) check[key] = value;
    }
    checks.push(check);
  }
  return checks;
}

test('the fast path says valid only where the schema validator finds nothing: same verdict, same (no) messages', () => {
  const validate = validators.get('check')!;
  let fast = 0;
  let valid = 0;
  for (const check of generated(6000)) {
    const ajvValid = validate(check) === true;
    if (ajvValid) valid++;
    if (!surelyValidCheck(check)) continue;
    fast++;
    assert.equal(ajvValid, true, `fast path accepted what the schema refuses: ${JSON.stringify(check)} ${JSON.stringify(validate.errors)}`);
    assert.deepEqual(schemaProblems('check', check), []);
  }
  // Not vacuous: the generated checks hold many the fast path decides, and many it leaves to the schema.
  assert.ok(fast > 300, `fast path accepted ${fast}`);
  assert.ok(valid > fast, `schema accepted ${valid}, fast path ${fast}`);
});

test('a typical check (subscribers, handlers, subdue, hooks) takes the fast path', () => {
  const check = {
    name: 'check_disk',
    command: '/usr/lib/nagios/plugins/check_disk -w :::disk.warning|80::: -p /data',
    subscribers: ['linux', 'team-1'],
    interval: 60,
    timeout: 30,
    handlers: ['default'],
    subdue: { days: { all: [window] } },
    hooks: { critical: { command: 'ps aux' } },
  };
  assert.equal(surelyValidCheck(check), true);
  assert.equal(surelyValidCheck({ ...check, standalone: true, subscribers: 'anything' }), true);
});

test('a check the fast path leaves to the schema keeps the schema messages', () => {
  const check = { name: 'x', command: 'c', interval: 60, subscribers: ['linux'], hooks: { ok: { command: 'x', timeout: '1' } } };
  assert.equal(surelyValidCheck(check), false);
  assert.deepEqual(schemaProblems('check', check), [{ path: '/hooks/ok/timeout', message: 'check hook timeout must be numeric' }]);
});
