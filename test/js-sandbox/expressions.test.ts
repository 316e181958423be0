import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadExpressionSandbox, evaluateInSandbox, type Outcome } from '../../src/js-sandbox/expressions.js';

before(() => loadExpressionSandbox());

const NOW = Date.parse('2026-05-01T12:00:00Z');
const event = { timestamp: 1520275913, entity: { name: 'web-1', labels: { tier: 'web' } }, check: { name: 'http', status: 2 } };
const run = (expression: string, scope: Record<string, unknown> = { event }, options: Partial<Parameters<typeof evaluateInSandbox>[2]> = {}) =>
  evaluateInSandbox(expression, scope, { nowMs: NOW, entity: 'web-1', ...options });
const value = async (expression: string): Promise<boolean> => {
  const outcome = await run(expression);
  assert.ok(outcome.ok, `${expression}: ${JSON.stringify(outcome)}`);
  return outcome.matched;
};
const error = (outcome: Outcome) => (outcome.ok ? null : outcome.error);

test("Sensu Go's time helpers: UTC, truncated toward zero, anything but a number is 0, no argument is 0", async () => {
  // 1520275913 is Monday, March 5, 2018 6:51:53 PM UTC.
  assert.ok(await value('hour(event.timestamp) === 18 && minute(event.timestamp) === 51 && second(event.timestamp) === 53 && weekday(event.timestamp) === 1'));
  assert.ok(await value('hour(1520275913.99) === 18 && second(1520275913.99) === 53'), 'a fraction is dropped');
  assert.ok(await value('hour() === 0 && weekday() === 0 && seconds_since() === 0'), 'no argument');
  assert.ok(
    await value('hour("1520275913") === 0 && weekday(null) === 4 && weekday(true) === 4 && hour({}) === 0 && hour(NaN) === 0'),
    'not a number: the epoch, a Thursday',
  );
  // -1 is 1969-12-31 23:59:59, a Wednesday.
  assert.ok(await value('hour(-1) === 23 && minute(-1) === 59 && second(-1) === 59 && weekday(-1) === 3'));
  assert.ok(await value('weekday(0) === 4 && weekday(3 * 86400) === 0'), 'Sunday is 0');
  assert.ok(await value(`seconds_since(event.timestamp) === ${(NOW - 1520275913000) / 1000}`), 'seconds from the evaluation time');
  assert.ok(await value(`seconds_since(${NOW / 1000 + 10}) === -10`), 'a future timestamp is negative');
});

test('sensu.CheckDependencies reads other events through the lookup: names on the same entity, objects, arrays', async () => {
  const events: Record<string, { check: { status: number } }> = {
    'web-1/db': { check: { status: 2 } },
    'web-1/disk': { check: { status: 0 } },
    'router/port1': { check: { status: 0 } },
    'router/port2': { check: { status: 1 } },
  };
  const asked: string[] = [];
  const dependencies = (entity: string, check: string) => (asked.push(`${entity}/${check}`), events[`${entity}/${check}`] ?? null);
  const deps = (expression: string) => run(expression, { event }, { dependencies });
  assert.deepEqual(await deps('sensu.CheckDependencies()'), { ok: true, matched: true }, 'none asked: true');
  assert.deepEqual(await deps('sensu.CheckDependencies("disk")'), { ok: true, matched: true });
  assert.deepEqual(await deps('sensu.CheckDependencies("disk", "db")'), { ok: true, matched: false });
  assert.deepEqual(await deps('sensu.CheckDependencies({entity: "router", check: "port1"}, ["disk"])'), { ok: true, matched: true });
  assert.deepEqual(await deps('sensu.CheckDependencies([{entity: "router", check: "port1"}, {entity: "router", check: "port2"}])'), {
    ok: true,
    matched: false,
  });
  assert.deepEqual(
    await deps('sensu.CheckDependencies("disk") && sensu.CheckDependencies({entity: "router", check: "port1"})'),
    { ok: true, matched: true },
    'asked one after the other',
  );
  assert.match(String(error(await deps('sensu.CheckDependencies("absent")'))), /no event for check absent on entity web-1/);
  assert.match(String(error(await deps('sensu.CheckDependencies(42)'))), /a check is a name or \{entity, check\}/);
  assert.match(
    String(error(await deps(`sensu.CheckDependencies("${'x'.repeat(256)}")`))),
    /no event for check x+ on entity web-1/,
    'a name longer than any stored',
  );
  assert.ok(asked.includes('router/port2') && asked.includes('web-1/absent'));
  assert.ok(
    asked.every((key) => key.length < 256),
    'an over-long name is not looked up',
  );
  assert.match(String(error(await run('sensu.CheckDependencies("unlooked")'))), /no event/, 'without a lookup no event is found');
});

test('the scope is data: no process, no require, no Promise, no host function; the event is a copy', async () => {
  assert.match(String(error(await run('event.constructor.constructor("return process")()'))), /process.* is not defined/);
  assert.match(String(error(await run('this.constructor.constructor("return require")()("fs")'))), /require.* is not defined/);
  assert.ok(
    await value('typeof Promise == "undefined" && typeof Proxy == "undefined" && typeof WebAssembly == "undefined" && typeof setTimeout == "undefined"'),
  );
  const names = await run(
    'Object.getOwnPropertyNames(this).filter(function (n) { return typeof this[n] == "function" && !/^[A-Z]/.test(n) }, this).sort().join() == "decodeURI,decodeURIComponent,encodeURI,encodeURIComponent,escape,eval,hour,isFinite,isNaN,minute,parseFloat,parseInt,second,seconds_since,unescape,weekday"',
  );
  assert.deepEqual(names, { ok: true, matched: true }, 'the only functions besides the language are the helpers');
  const scope = { event: { check: { status: 2 } } };
  assert.ok((await run('event.check.status = 0; delete event.check; true', scope)).ok);
  assert.deepEqual(scope, { event: { check: { status: 2 } } }, 'the caller’s object is untouched');
});

test('promise jobs never run: async functions and import() queue work that is dropped with its runtime', async () => {
  assert.match(String(error(await run('Promise.resolve().then(function loop() { while (true) {} })'))), /Promise.* is not defined/);
  assert.ok(await value('(async function () { await 0; while (true) {} })(), true'), 'the async function returns at its first await');
  assert.ok(await value('import("fs"), Function("return import(\'node:fs\')")(), true'), 'a module load is queued, never run');
  assert.ok(await value('typeof process == "undefined" && typeof require == "undefined" && event.check.status == 2'));
});

test('nothing an evaluation changes is seen by the next one', async () => {
  assert.ok(
    await value(
      'Object.prototype.polluted = 1; Array.prototype.map = null; this.leaked = 2; JSON.parse = null; Math.floor = function () { return 7 }; hour = null; event.check.status = 0; true',
    ),
  );
  assert.ok(
    await value(
      '({}).polluted === undefined && typeof [].map == "function" && typeof leaked == "undefined" && typeof JSON.parse == "function" && Math.floor(1.5) === 1 && hour(0) === 0 && event.check.status === 2',
    ),
  );
});

test('expressions are programs as Otto runs them: statements, var, the last value; truthiness decides', async () => {
  assert.ok(await value('var n = event.check.status; n == 2'));
  assert.ok(await value('"yes"'));
  assert.equal(await value('""'), false);
  assert.equal(await value('undefined'), false);
  assert.match(String(error(await run('event.check.'))), /SyntaxError/);
  assert.match(String(error(await run('throw "plain"'))), /plain/);
});

test('a loop is stopped at its CPU budget and quarantined: the next evaluation does not run it; failures are reported once per text', async () => {
  const first = await run('for (;;) {}');
  assert.deepEqual(first, { ok: false, error: 'exceeded its CPU budget of 25 ms', report: true });
  assert.deepEqual(await run('for (;;) {}'), { ok: false, error: 'quarantined after exceeding its budget', report: false });
  assert.ok(await value('event.check.status == 2'), 'other expressions still run');
  const broken = 'event.nothing.here';
  assert.equal(((await run(broken)) as { report: boolean }).report, true);
  assert.equal(((await run(broken)) as { report: boolean }).report, false, 'the same text again: not reported');
  assert.equal(error(await run(broken)), "TypeError: cannot read property 'here' of undefined", 'still evaluated: not quarantined');
});

test('memory and stack are bounded; a catchable overflow does not help an expression escape its budget', async () => {
  assert.deepEqual(await run("'x'.repeat(1 << 26).length > 0"), { ok: false, error: 'exceeded its memory limit of 32 MB', report: true });
  assert.match(String(error(await run('var a = []; while (true) a.push([1, 2, 3, 4, 5, 6, 7, 8])'))), /memory limit|CPU budget/);
  assert.match(String(error(await run('function f() { return f() } f()'))), /stack overflow/);
  assert.match(String(error(await run('JSON.parse(new Array(100000).join("["))'))), /stack overflow/);
  assert.match(String(error(await run('function g() { try { return g() } catch (e) { return g() } } g()'))), /CPU budget/);
  assert.ok(await value('event.check.status == 2'));
});

test('a built-in that never checks for interrupts: the daemon stops waiting, replaces the sandbox thread and goes on', async () => {
  assert.deepEqual(await run('new Array(4e9).indexOf(1)'), { ok: false, error: 'exceeded its CPU budget of 25 ms (stopped)', report: true });
  // The spare thread took over (or, when it had not loaded yet, the next one does shortly).
  let after = await run('event.check.status == 2');
  for (let i = 0; i < 100 && !after.ok; i++) {
    await sleep(50);
    after = await run('event.check.status == 2');
  }
  assert.deepEqual(after, { ok: true, matched: true });
});

test('an event nested as deep as the API allows, and a large one, are evaluated', async () => {
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 100; i++) deep = { a: deep };
  assert.deepEqual(await run('event.deep.a.a.a !== undefined', { event: { deep } }), { ok: true, matched: true });
  const big = { check: { output: 'x'.repeat(1 << 20), status: 2, history: Array.from({ length: 21 }, (_, i) => ({ status: i % 2, executed: i })) } };
  assert.deepEqual(await run('event.check.output.length == 1048576 && event.check.history.length == 21', { event: big }), { ok: true, matched: true });
});
