// The prelude is QuickJS source; run here in a fresh V8 context, which has the same language, to read what it defines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContext, runInContext } from 'node:vm';
import { preludeFor } from '../../src/js-sandbox/prelude.js';

interface Input {
  now?: number;
  self?: string;
  deps?: Record<string, number | null>;
  scope?: Record<string, unknown>;
}

function run(expression: string, input: Input = {}): { value?: unknown; error?: string; needs: string } {
  const context = createContext({});
  const prelude = runInContext(preludeFor(expression), context) as (global: object, input: string) => () => string;
  const report = prelude(runInContext('globalThis', context) as object, JSON.stringify({ now: 0, self: 'web-1', deps: {}, scope: {}, ...input }));
  try {
    const value = runInContext(expression, context) as unknown;
    // A list made in the other context, copied into this one for deepEqual.
    return { value: typeof value === 'object' ? structuredClone(value) : value, needs: report() };
  } catch (error) {
    return { error: (error as Error).message, needs: report() };
  }
}

const SEP = '\u001f';
const END = '\u001e';

test('the helpers are defined only when the expression names them, or could reach them by a computed name', () => {
  const has = (expression: string) => {
    const source = preludeFor(expression);
    return { time: source.includes('global.hour'), sensu: source.includes('global.sensu') };
  };
  assert.deepEqual(has('event.check.status == 2'), { time: false, sensu: false });
  assert.deepEqual(has('hour(event.timestamp) > 9'), { time: true, sensu: false });
  assert.deepEqual(has('seconds_since(event.timestamp) > 60'), { time: true, sensu: false });
  assert.deepEqual(has('sensu.CheckDependencies("db")'), { time: false, sensu: true });
  for (const dynamic of ['this["ho" + "ur"](1)', 'globalThis.x', 'eval("1")', 'Function("return 1")()', '[].constructor'])
    assert.deepEqual(has(dynamic), { time: true, sensu: true }, dynamic);
});

test('each variant is built once and shared', () => {
  assert.equal(preludeFor('hour(1) == 0'), preludeFor('minute(2) == 1'));
  assert.notEqual(preludeFor('hour(1) == 0'), preludeFor('event.x'));
});

test('the scope becomes globals; Promise is gone', () => {
  assert.equal(run('event.check.status + typeof Promise', { scope: { event: { check: { status: 2 } } } }).value, '2undefined');
});

test('the time helpers are UTC over whole seconds truncated toward zero; anything but a number is the epoch', () => {
  // 1520275913 is Monday, March 5, 2018 6:51:53 PM UTC.
  assert.deepEqual(run('[hour(1520275913.9), minute(1520275913), second(1520275913), weekday(1520275913)]').value, [18, 51, 53, 1]);
  assert.deepEqual(run('[hour(-1), minute(-1.5), second(-1), weekday(-1)]').value, [23, 59, 59, 3]);
  assert.deepEqual(run('[hour(), weekday("1520275913"), weekday(Infinity), seconds_since()]').value, [0, 4, 4, 0]);
  assert.equal(run('seconds_since(100.7)', { now: 160_500 }).value, 60.5);
});

test('CheckDependencies: all passing is true, one failing false, nothing asked true', () => {
  const deps = { [`web-1${SEP}db`]: 0, [`other${SEP}dns`]: 0, [`web-1${SEP}disk`]: 2 };
  assert.equal(run('sensu.CheckDependencies("db", {entity: "other", check: "dns"})', { deps }).value, true);
  assert.equal(run('sensu.CheckDependencies(["db", "disk"])', { deps }).value, false);
  assert.equal(run('sensu.CheckDependencies()', { deps }).value, true);
});

test('CheckDependencies reports the unknown dependencies and stops; a known one without an event is an error naming it', () => {
  const unknown = run('sensu.CheckDependencies("db", {entity: "lb", check: "http"})', { deps: { [`web-1${SEP}db`]: 0 } });
  assert.equal(unknown.error, 'sensu.CheckDependencies: the dependencies are being read');
  assert.equal(unknown.needs, `lb${SEP}http${END}`);
  const missing = run('sensu.CheckDependencies("db")', { deps: { [`web-1${SEP}db`]: null } });
  assert.equal(missing.error, 'sensu.CheckDependencies: no event for check db on entity web-1');
  assert.equal(missing.needs, '');
  assert.equal(run('sensu.CheckDependencies(3)').error, 'sensu.CheckDependencies: a check is a name or {entity, check}');
});

test('a name longer than 255 characters has no event and is never asked for; at most 64 dependencies are asked for', () => {
  const long = run(`sensu.CheckDependencies("${'x'.repeat(256)}")`);
  assert.equal(long.needs, '');
  assert.equal(long.error, `sensu.CheckDependencies: no event for check ${'x'.repeat(255)} on entity web-1`);
  const many = run('var names = []; for (var i = 0; i < 100; i++) names.push("c" + i); sensu.CheckDependencies(names)');
  assert.equal(many.needs.split(END).filter(Boolean).length, 64);
});

test('what the expression does to the globals cannot change what is reported', () => {
  const tampered = run('String.prototype.slice = null; Object.prototype.hasOwnProperty = function () { return true; }; sensu.CheckDependencies("db")');
  assert.equal(tampered.error, 'sensu.CheckDependencies: the dependencies are being read');
  assert.equal(tampered.needs, `web-1${SEP}db${END}`);
});
