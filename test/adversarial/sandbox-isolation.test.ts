// One namespace's events never make another namespace's expressions fail. Before, reading a large event counted
// against the expression's 25 ms budget and the quarantine was kept by expression text alone: one ~400 KB event
// through `event.check.occurrences == 1` in team-a stopped it, and the same text in team-b did not match for 5 minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadExpressionSandbox, evaluateInSandbox, MAX_SCOPE_BYTES, type Outcome } from '../../src/sandbox/expressions.js';

const EXPRESSION = 'event.check.occurrences == 1 /* shared by two teams */';
const small = { event: { check: { occurrences: 1, status: 2, output: 'ok' }, entity: { name: 'b' } } };
// About 400 KB of JSON, costly to read (many small values): under MAX_SCOPE_BYTES.
const large = { event: { check: { occurrences: 1, status: 2, blob: Array.from({ length: 200_000 }, (_, i) => i % 10) }, entity: { name: 'a' } } };
const evaluate = (scope: object, namespace: string): Promise<Outcome> => evaluateInSandbox(EXPRESSION, scope, { nowMs: Date.now(), namespace });

test("large events in one namespace quarantine nothing: the same text still matches there and in another namespace", async () => {
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
  assert.ok(!other.ok && other.error !== 'quarantined after exceeding its budget' && other.report, `run and reported in its own namespace: ${JSON.stringify(other)}`);
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
