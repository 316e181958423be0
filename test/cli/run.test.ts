import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startInstance } from '../helpers/instance.js';
import { until } from '../helpers/wait.js';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';

test('a role that does not exist is a usage error before anything starts', (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const result = runCli(['run', '--role', 'worker', '--state-dir', join(root, 'state')]);
  assert.equal(result.code, 64);
  assert.match(result.stderr, /checkbridge: invalid usage: --role must be server, client or both, not worker\n$/);
  assert.throws(() => statSync(join(root, 'state')), 'no state directory made');
});

test('the daemon warns of secret flags and of what its configuration does not mean, runs checks with its state directory and without its credentials, and stops on SIGTERM', async (t) => {
  const root = makeTree({});
  const seen = join(root, 'seen');
  const probe = `printf '%s %s' "$CHECKBRIDGE_STATE_DIR" "\${CHECKBRIDGE_ADMIN_PASSWORD:-withheld}" > ${seen}`;
  writeTree(root, {
    'conf.d/config.json': {
      client: { name: 'box', address: '127.0.0.1', subscriptions: [] },
      checks: { probe: { command: probe, interval: 1, ttl: 1, standalone: true } },
    },
  });
  const { daemon } = await startInstance(root, ['--bridge-api-key', 'flag-secret']);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const running = daemon.logs.find((l) => l.msg === 'checkbridge running')!;
  assert.equal(running.role, 'both');
  assert.ok(daemon.logs.some((l) => l.level === 40 && String(l.msg).startsWith('--bridge-api-key puts a secret on the command line')));
  const notice = daemon.logs.find((l) => l.msg === 'configuration does not mean what it says');
  assert.match(String(notice?.diagnostic), /\/checks\/probe\/ttl: check ttl 1 is not greater than its interval 1/);
  assert.equal(statSync(join(root, 'state')).mode & 0o777, 0o700);
  assert.ok(await until(() => existsSync(seen) && readFileSync(seen, 'utf8').length > 0, 30_000), 'the check ran');
  assert.equal(readFileSync(seen, 'utf8'), `${join(root, 'state')} withheld`);
  assert.equal(await daemon.stop('SIGTERM'), 0);
});
