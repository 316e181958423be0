import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envOf, withEnvVars } from '../../src/execute/env-vars.js';
import { spawnCommand } from '../../src/execute/index.js';

test('env_vars: KEY=VALUE entries reach the command, the value keeps its = signs, malformed entries are left out', async () => {
  assert.deepEqual(envOf(['A=1', 'B=x=y', '=nokey', 'noequals', 7]), { A: '1', B: 'x=y' });
  const run = withEnvVars(spawnCommand, ['GREETING=hello world', 'B=x=y']);
  const result = await run('echo "$GREETING/$B"', {});
  assert.equal(result.output.trim(), 'hello world/x=y');
});
