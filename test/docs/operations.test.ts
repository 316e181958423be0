// What docs/operations.md and the README say about the package and the service unit is what the repository ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { readPage } from './pages.js';

// The page's text with its line breaks as spaces: a statement holds however the page wraps it.
const OPERATIONS = readPage('docs/operations.md').replace(/\s+/g, ' ');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const UNIT = readFileSync(join(ROOT, 'scripts', 'systemd', 'checkbridge.service'), 'utf8');

test('the service the page describes is the unit shipped: its command, its binary, and the package carries it', () => {
  const described = /`scripts\/systemd\/checkbridge.service` \(shipped in the package\) runs `([^`]+)`/.exec(OPERATIONS)![1]!;
  const binary = /The unit starts `([^`]+)`/.exec(OPERATIONS)![1]!;
  assert.equal(/^ExecStart=(.*)$/m.exec(UNIT)![1], described.replace(/^checkbridge /, `${binary} `));
  assert.ok(PACKAGE.files.includes('scripts'), 'package.json ships scripts/');
  // "as the user `checkbridge`, restarts it on failure (not on invalid configuration, exit 78, nor on bad usage, 64)",
  // "reloads on `systemctl reload` (SIGHUP)"
  assert.ok(OPERATIONS.includes('as the user `checkbridge`, restarts it on failure (not on invalid configuration, exit 78, nor on bad usage, 64'));
  assert.match(UNIT, /^User=checkbridge$/m);
  assert.match(UNIT, /^Restart=on-failure$/m);
  assert.deepEqual(/^RestartPreventExitStatus=(.*)$/m.exec(UNIT)![1]!.split(' ').sort(), ['64', '78']);
  assert.match(UNIT, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
});

test('the package the page installs is the one npm pack writes, on the Node the README names, without overrides', () => {
  const tarball = /writes `(checkbridge-[\d.]+\.tgz)`/.exec(OPERATIONS)![1]!;
  assert.equal(tarball, `${PACKAGE.name}-${PACKAGE.version}.tgz`);
  assert.ok(OPERATIONS.includes(`--allow-scripts=better-sqlite3 ./${tarball}`));
  assert.equal(PACKAGE.overrides, undefined);
  assert.equal(
    PACKAGE.dependencies['light-my-request'] ?? PACKAGE.devDependencies?.['light-my-request'],
    /`light-my-request` is pinned to ([\d.]+)/.exec(OPERATIONS)![1],
  );
  const node = /Node\.js ≥ ([\d.]+)/.exec(readPage('README.md'))![1]!;
  assert.equal(PACKAGE.engines.node, `>=${node}`);
});
