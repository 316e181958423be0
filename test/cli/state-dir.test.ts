import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { stateDirOption } from '../../src/cli/state-dir.js';

function parsed(args: string[]): unknown {
  const command = stateDirOption(new Command('backup').exitOverride());
  command.parse(args, { from: 'user' });
  return command.opts().stateDir;
}

test('--state-dir names the directory; without it, CHECKBRIDGE_STATE_DIR, else ./state as run has it', (t) => {
  const saved = process.env.CHECKBRIDGE_STATE_DIR;
  t.after(() => {
    if (saved === undefined) delete process.env.CHECKBRIDGE_STATE_DIR;
    else process.env.CHECKBRIDGE_STATE_DIR = saved;
  });
  delete process.env.CHECKBRIDGE_STATE_DIR;
  assert.equal(parsed(['--state-dir', '/var/lib/checkbridge']), '/var/lib/checkbridge');
  assert.equal(parsed([]), 'state');
  process.env.CHECKBRIDGE_STATE_DIR = '/srv/cb';
  assert.equal(parsed([]), '/srv/cb');
  assert.equal(parsed(['--state-dir', 'here']), 'here');
});
