// Check hooks: which one runs for a status, and how it runs (its own tokens, timeout and stdin).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHook, selectHook } from '../../src/execute/hooks.js';
import { spawnCommand } from '../../src/execute/spawn.js';

const clock = { now: () => 1_700_000_000_500 };

test('the hook for a status: its number first, then its severity name, then non-zero; at most one', () => {
  const all = { '2': {}, critical: {}, 'non-zero': {}, ok: {} };
  assert.equal(selectHook(all, 2), '2');
  assert.equal(selectHook({ critical: {}, 'non-zero': {} }, 2), 'critical');
  assert.equal(selectHook({ 'non-zero': {} }, 2), 'non-zero');
  assert.equal(selectHook({ 'non-zero': {} }, 0), null, 'ok is not non-zero');
  assert.equal(selectHook({ ok: {} }, 0), 'ok');
  assert.equal(selectHook({ unknown: {} }, 7), 'unknown', 'any status outside 0-2 is unknown');
  assert.equal(selectHook({ unknown: {} }, -1), 'unknown');
  assert.equal(selectHook({}, 2), null);
  assert.equal(selectHook(undefined, 2), null);
});

test('a hook runs its command with the client tokens substituted, timed in seconds', async () => {
  const run = await runHook({ command: 'echo disk on :::name::: at :::disk.path|/:::; exit 1' }, { name: 'web-1' }, {}, clock, spawnCommand);
  assert.equal(run.output, 'disk on web-1 at /\n');
  assert.equal(run.status, 1);
  assert.equal(run.executed, 1_700_000_000);
  assert.ok(typeof run.duration === 'number' && run.duration >= 0 && Number(run.duration.toFixed(3)) === run.duration);
});

test('with stdin: true the hook reads the client and check as JSON', async () => {
  const run = await runHook({ command: 'cat', stdin: true }, { name: 'web-1' }, { name: 'disk', status: 2 }, clock, spawnCommand);
  assert.deepEqual(JSON.parse(run.output), { client: { name: 'web-1' }, check: { name: 'disk', status: 2 } });
});

test('a hook past its timeout is stopped', async () => {
  const run = await runHook({ command: 'sleep 5', timeout: 0.2 }, {}, {}, clock, spawnCommand);
  assert.notEqual(run.status, 0);
  assert.match(run.output, /Execution timed out/);
});

test('an unmatched token fails this hook with status 3, never running it', async () => {
  let ran = false;
  const run = await runHook({ command: 'echo :::missing:::' }, { name: 'web-1' }, {}, clock, async (command, options) => {
    ran = true;
    return spawnCommand(command, options);
  });
  assert.deepEqual(run, { output: 'Unmatched client token(s): missing', status: 3, executed: 1_700_000_000 });
  assert.equal(ran, false);
});
