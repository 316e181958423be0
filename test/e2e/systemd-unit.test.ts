import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/paths.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const UNIT = join(ROOT, 'scripts', 'systemd', 'checkbridge.service');
const INSTALLED_BIN = '/usr/local/bin/checkbridge';

/** Why the unit cannot be verified here, or false; in CI a missing systemd-analyze is a failure, not a skip. */
function analyzeSkipReason(): string | false {
  if (spawnSync('systemd-analyze', ['--version']).status === 0) return false;
  const reason = 'systemd-analyze is not installed (apt-get install systemd, or scripts/install-test-servers.sh)';
  if (process.env.CI === 'true') throw new Error(`CI: ${reason}`);
  return reason;
}

test('the shipped systemd unit runs the daemon on /etc/sensu as a dedicated, confined user', () => {
  const unit = readFileSync(UNIT, 'utf8');
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1];
  assert.equal(execStart, `${INSTALLED_BIN} run -c /etc/sensu/config.json -d /etc/sensu/conf.d --state-dir /var/lib/checkbridge --log-format json`);
  for (const line of [
    'User=checkbridge',
    'Restart=on-failure',
    'StateDirectory=checkbridge',
    'StateDirectoryMode=0700',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    'ProtectHome=yes',
    'PrivateTmp=yes',
    'CapabilityBoundingSet=',
  ]) {
    assert.ok(unit.split('\n').includes(line), `the unit says ${line}`);
  }
});

test('systemd-analyze verify accepts the shipped unit without a warning', { skip: analyzeSkipReason() }, (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  // verify requires the command to exist: this checkout's binary stands in for the installed one.
  const unit = join(root, 'checkbridge.service');
  writeFileSync(unit, readFileSync(UNIT, 'utf8').replace(INSTALLED_BIN, BIN));
  const verified = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
  assert.equal(verified.status, 0, verified.stderr);
  // An unknown or misspelt setting is only a warning, with status 0: none may appear.
  assert.equal(verified.stderr.trim(), '');
  // The check itself catches a broken unit.
  writeFileSync(unit, readFileSync(unit, 'utf8').replace('Restart=on-failure', 'Restart=sometimes'));
  assert.match(spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' }).stderr, /Failed to parse service restart specifier/);
});
