// The generated description of the Sensu Go types (src/v2/generated/) is what the one table says, and says it rightly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { WIRE_TYPES } from '../../src/v2/index.js';

test('src/v2/generated/ is what scripts/build-types.mjs writes from schemas/sensu-go-types.txt', () => {
  const check = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-types.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});

test('the table keeps the fields Go writes in JSON and drops the ones it skips (json:"-")', () => {
  assert.deepEqual(Object.keys(WIRE_TYPES.CheckHistory!), ['status', 'executed']);
  assert.equal('scheduler' in WIRE_TYPES.CheckConfig!, false);
  assert.equal(WIRE_TYPES.Check!.scheduler, 'string');
  // Hook embeds HookConfig: its fields are read among Hook's own.
  assert.deepEqual(Object.keys(WIRE_TYPES.Hook!).slice(0, 6), ['metadata', 'command', 'timeout', 'stdin', 'runtime_assets', 'duration']);
});
