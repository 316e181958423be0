import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCheck } from '../../src/execute/check-run.js';
import { selectHook } from '../../src/execute/hooks.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import { systemClock } from '../../src/schedule/index.js';

const client = { name: 'web01', address: '10.0.0.1', subscriptions: [], secret: 's3cr3t', disk: { warn: 80 } };
const context = { client, run: spawnCommand, clock: systemClock };

test('hook precedence: status string, severity name, then non-zero', () => {
  assert.equal(selectHook({ ok: {}, warning: {} }, 1), 'warning');
  assert.equal(selectHook({ '1': {}, warning: {} }, 1), '1');
  assert.equal(selectHook({ ok: {}, 'non-zero': {} }, 1), 'non-zero');
  assert.equal(selectHook({ ok: {}, 'non-zero': {} }, 0), 'ok');
  assert.equal(selectHook({ 'non-zero': {} }, 0), null);
  assert.equal(selectHook({ unknown: {} }, 127), 'unknown');
  assert.equal(selectHook({ unknown: {} }, -1), 'unknown');
  assert.equal(selectHook({}, 2), null);
});

test('tokens are substituted for execution; the result keeps the original command', async () => {
  const result = await runCheck({ name: 'disk', command: 'echo :::secret::: :::disk.warn:::', issued: 5 }, context);
  assert.equal(result.client, 'web01');
  assert.equal(result.check.output, 's3cr3t 80\n');
  assert.equal(result.check.command, 'echo :::secret::: :::disk.warn:::');
  assert.equal(result.check.status, 0);
  assert.equal(result.check.issued, 5);
  assert.equal(typeof result.check.executed, 'number');
  assert.match(String(result.check.duration), /^\d+(\.\d{1,3})?$/);
});

test('unmatched tokens: not executed, status 3, handle false, no duration', async () => {
  const result = await runCheck({ name: 'x', command: 'touch /tmp/should-not-exist-:::nope:::', args: [':::also.missing:::'] }, context);
  assert.equal(result.check.output, 'Unmatched client token(s): nope, also.missing');
  assert.equal(result.check.status, 3);
  assert.equal(result.check.handle, false);
  assert.equal(result.check.duration, undefined);
});

test('at most one hook runs; its output, status, executed and duration are added; the check status is unchanged', async () => {
  const result = await runCheck(
    {
      name: 'x',
      command: 'echo bad; exit 1',
      hooks: { ok: { command: 'echo ok-hook' }, warning: { command: 'echo warn-hook :::name:::; exit 3' }, 'non-zero': { command: 'echo nz' } },
    },
    context,
  );
  assert.equal(result.check.status, 1);
  assert.equal(result.check.output, 'bad\n');
  const hooks = result.check.hooks as Record<string, Record<string, unknown>>;
  assert.equal(hooks.warning!.output, 'warn-hook web01\n');
  assert.equal(hooks.warning!.status, 3);
  assert.equal(typeof hooks.warning!.duration, 'number');
  assert.equal(hooks.warning!.command, 'echo warn-hook :::name:::; exit 3');
  assert.equal(hooks.ok!.output, undefined);
  assert.equal(hooks['non-zero']!.output, undefined);
});

test('an unmatched token in a hook fails only that hook', async () => {
  const result = await runCheck({ name: 'x', command: 'exit 2', hooks: { critical: { command: 'echo :::missing_hook:::' } } }, context);
  assert.equal(result.check.status, 2);
  const hook = (result.check.hooks as Record<string, Record<string, unknown>>).critical!;
  assert.equal(hook.output, 'Unmatched client token(s): missing_hook');
  assert.equal(hook.status, 3);
});

test('a hook times out like a check', async () => {
  const result = await runCheck({ name: 'x', command: 'exit 2', hooks: { critical: { command: 'sleep 10', timeout: 0.3 } } }, context);
  const hook = (result.check.hooks as Record<string, Record<string, unknown>>).critical!;
  assert.deepEqual([hook.output, hook.status], ['Execution timed out', 2]);
});

test('stdin: true sends {client, check} as JSON', async () => {
  const result = await runCheck({ name: 'x', command: 'cat', stdin: true, custom: ':::name:::' }, context);
  const seen = JSON.parse(result.check.output);
  assert.equal(seen.client.secret, 's3cr3t');
  assert.equal(seen.check.name, 'x');
  assert.equal(seen.check.custom, 'web01');
  assert.equal(typeof seen.check.executed, 'number');
});

test('check timeout: status 2 and exactly the legacy output', async () => {
  const result = await runCheck({ name: 'x', command: 'echo partial; sleep 10', timeout: 0.3 }, context);
  assert.deepEqual([result.check.output, result.check.status], ['Execution timed out', 2]);
});

test('an empty source is dropped from the published result', async () => {
  const result = await runCheck({ name: 'x', command: 'true', source: ':::nothing|:::' }, context);
  assert.equal('source' in result.check, false);
});

test('output_metric_format: points extracted with output_metric_tags; bad lines skipped and reported', async () => {
  const errors: unknown[] = [];
  const result = await runCheck(
    {
      name: 'm',
      command: "printf 'a.b 1 100\\ngarbage\\nc.d 2.5 200\\n'",
      output_metric_format: 'graphite_plaintext',
      output_metric_tags: { env: 'prod' },
      output_metric_handlers: ['influx'],
    },
    { ...context, onMetricError: (e) => errors.push(e) },
  );
  assert.deepEqual(result.metrics, {
    handlers: ['influx'],
    points: [
      { name: 'a.b', value: 1, timestamp: 100, tags: [{ name: 'env', value: 'prod' }] },
      { name: 'c.d', value: 2.5, timestamp: 200, tags: [{ name: 'env', value: 'prod' }] },
    ],
  });
  assert.equal(errors.length, 1);
});

test('output_metric_tags as a list of {name, value} tags every point (not indices and [object Object])', async () => {
  const result = await runCheck(
    {
      name: 'm',
      command: "printf 'a.b 1 100\\n'",
      output_metric_format: 'graphite_plaintext',
      output_metric_tags: [
        { name: 'env', value: 'prod' },
        { name: 'dc', value: 'eu-1' },
      ],
    },
    context,
  );
  assert.deepEqual(result.metrics?.points, [
    {
      name: 'a.b',
      value: 1,
      timestamp: 100,
      tags: [
        { name: 'env', value: 'prod' },
        { name: 'dc', value: 'eu-1' },
      ],
    },
  ]);
});
