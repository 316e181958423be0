// One namespace's events never make another namespace's expressions fail. Before, reading a large event counted
// against the expression's 25 ms budget and the quarantine was kept by expression text alone: one ~400 KB event
// through `event.check.occurrences == 1` in team-a stopped it, and the same text in team-b did not match for 5 minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadExpressionSandbox, evaluateInSandbox, MAX_SCOPE_BYTES, type Outcome } from '../../src/js-sandbox/expressions.js';
import { instanceFor } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const EXPRESSION = 'event.check.occurrences == 1 /* shared by two teams */';
const small = { event: { check: { occurrences: 1, status: 2, output: 'ok' }, entity: { name: 'b' } } };
// About 400 KB of JSON, costly to read (many small values): under MAX_SCOPE_BYTES.
const large = { event: { check: { occurrences: 1, status: 2, blob: Array.from({ length: 200_000 }, (_, i) => i % 10) }, entity: { name: 'a' } } };
const evaluate = (scope: object, namespace: string): Promise<Outcome> => evaluateInSandbox(EXPRESSION, scope, { nowMs: Date.now(), namespace });

test('large events in one namespace quarantine nothing: the same text still matches there and in another namespace', async () => {
  await loadExpressionSandbox();
  assert.ok(JSON.stringify(large).length < MAX_SCOPE_BYTES);
  assert.deepEqual(await evaluate(small, 'team-b'), { ok: true, matched: true });
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 4; i++) outcomes.push(await evaluate(large, 'team-a'));
  // Reading may outlast its wall-clock cap on a starved machine: then not evaluated, but never the expression's fault.
  for (const outcome of outcomes) assert.ok(outcome.ok || /its input took more than/.test(outcome.error), JSON.stringify(outcome));
  assert.deepEqual(await evaluate(small, 'team-b'), { ok: true, matched: true }, "team-b's events still pass its filter");
  assert.deepEqual(await evaluate(small, 'team-a'), { ok: true, matched: true }, 'the expression is not quarantined in team-a either');
});

test('an expression quarantined in one namespace still runs in another', async () => {
  await loadExpressionSandbox();
  const spin = '(function () { while (true) {} })() || event.check.status == 2 /* shared spin */';
  const run = (namespace: string) => evaluateInSandbox(spin, small, { nowMs: Date.now(), namespace });
  const first = await run('spinner');
  assert.equal(first.ok, false);
  assert.deepEqual(await run('spinner'), { ok: false, error: 'quarantined after exceeding its budget', report: false });
  const other = await run('bystander');
  assert.ok(
    !other.ok && other.error !== 'quarantined after exceeding its budget' && other.report,
    `run and reported in its own namespace: ${JSON.stringify(other)}`,
  );
});

test('an input larger than MAX_SCOPE_BYTES is not evaluated, reported once, and quarantines nothing', async () => {
  await loadExpressionSandbox();
  const huge = { event: { check: { occurrences: 1, output: 'y'.repeat(MAX_SCOPE_BYTES) }, entity: { name: 'h' } } };
  const first = await evaluate(huge, 'team-h');
  assert.equal(first.ok, false);
  assert.match(!first.ok ? first.error : '', new RegExp(`^not evaluated: its input is \\d+ bytes, more than the ${MAX_SCOPE_BYTES} the sandbox reads$`));
  assert.equal(!first.ok && first.report, true);
  const again = await evaluate(huge, 'team-h');
  assert.equal(!again.ok && again.report, false, 'reported once');
  assert.deepEqual(await evaluate(small, 'team-h'), { ok: true, matched: true });
});

test("through the daemon: team-a's large events leave team-b's copy of the same allow filter working", async (t) => {
  const { v2, daemon } = await instanceFor(t, {
    'conf.d/a.json': { client: { name: 'isolation-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } },
  });
  const admin = `Bearer ${await adminToken(v2)}`;
  // About 420 KB of small values (slower to read than one long string): under the v2 API's body limit.
  const points = Array.from({ length: 9000 }, (_, i) => ({ name: `m${i}`, value: i, timestamp: 1, tags: [] }));
  for (const team of ['team-a', 'team-b']) {
    const ns = `${v2}/api/core/v2/namespaces/${team}`;
    assert.equal((await call(ns, 'PUT', admin, {})).status, 201);
    assert.equal(
      (await call(`${ns}/filters/first`, 'PUT', admin, { metadata: { name: 'first' }, action: 'allow', expressions: ['event.check.occurrences == 1'] })).status,
      201,
    );
    assert.equal(
      (await call(`${ns}/handlers/record`, 'PUT', admin, { type: 'pipe', command: 'cat > /dev/null', filters: ['first'], timeout: 10 })).status,
      201,
    );
  }
  const put = (team: string, check: string, metrics?: object) =>
    call(`${v2}/api/core/v2/namespaces/${team}/events/host/${check}`, 'PUT', admin, {
      entity: { entity_class: 'proxy', metadata: { name: 'host' } },
      check: { metadata: { name: check }, interval: 60, status: 2, output: 'disk full', handlers: ['record'] },
      ...(metrics ? { metrics } : {}),
    });
  // The first word on each event: handled, filtered out, or its handler failed.
  const outcome = (team: string, after: number) =>
    daemon.waitFor(
      (l) => l.namespace === team && l.handler === 'record' && ['handler output', 'event was filtered', 'handler error'].includes(String(l.msg)),
      60_000,
      after,
    );
  for (let i = 0; i < 4; i++) {
    const mark = daemon.logs.length;
    assert.equal((await put('team-a', `big-${i}`, { handlers: [], points })).status, 201);
    await outcome('team-a', mark);
  }
  const mark = daemon.logs.length;
  assert.equal((await put('team-b', 'small')).status, 201);
  const verdict = await outcome('team-b', mark);
  assert.equal(verdict.msg, 'handler output', `team-b's event: ${JSON.stringify(verdict)}`);
  assert.equal(
    daemon.logs.filter((l) => /more than half its CPU budget/.test(String(l.msg)) || /CPU budget/.test(String(l.error ?? ''))).length,
    0,
    'no expression was stopped or quarantined',
  );
});
