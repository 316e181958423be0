import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { ROOT } from '../helpers/paths.js';
import { startDaemon } from '../helpers/daemon.js';

// The package as an operator gets it: packed, installed globally (into a private prefix), run from elsewhere.
function npmMissing(): string | false {
  const found = spawnSync('npm', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return false;
  const reason = 'npm is not installed: the package cannot be packed and installed';
  if (process.env.CI === 'true') throw new Error(`${reason}; required in CI`);
  return reason;
}

// Bounded: a global install of the packed package from npm's cache.
const INSTALL_TIMEOUT_MS = 5 * 60_000;

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('npm', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
}

test('the packed package installs globally and runs from another directory', { skip: npmMissing(), timeout: INSTALL_TIMEOUT_MS + 120_000 }, async (t) => {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  assert.equal(scripts.prepack, 'npm run build', 'npm pack of a clean clone builds dist/');
  const root = makeTree({});
  t.after(() => removeTree(root));
  // The dist/ this test runs from is the build prepack makes: pack it as it is, not rebuilt under the running suite.
  const tarball = join(root, npm(['pack', '--ignore-scripts', '--pack-destination', root, '--silent'], ROOT).trim().split('\n').pop()!);
  const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const file of [
    'package/dist/build-info.json',
    'package/dist/src/cli/main.js',
    'package/dist/src/cli/validate.bundle.cjs',
    'package/dist/src/cli/validate.bundle.cjs.cache',
    'package/bin/checkbridge',
    'package/bin/package.json',
    'package/schemas/check.json',
  ]) {
    assert.ok(listed.includes(file), `${file} is in the package`);
  }

  const prefix = join(root, 'prefix');
  // Its install script is left out: compiling better-sqlite3 from source is what `npm ci` of a clean clone does before
  // this suite runs (minutes of a core); the module that compile made is put where the script would have put it.
  const installed = npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], root, {
    npm_config_update_notifier: 'false',
  });
  const release = join('node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(join(prefix, 'lib', 'node_modules', 'checkbridge', release), { recursive: true });
  copyFileSync(join(ROOT, release, 'better_sqlite3.node'), join(prefix, 'lib', 'node_modules', 'checkbridge', release, 'better_sqlite3.node'));
  assert.doesNotMatch(installed, /EBADENGINE/);
  const packageDir = join(prefix, 'lib', 'node_modules', 'checkbridge');
  const version = (name: string) => JSON.parse(readFileSync(join(packageDir, 'node_modules', name, 'package.json'), 'utf8')).version;
  assert.equal(version('light-my-request'), '6.6.0', 'the pinned version holds without overrides');
  assert.match(version('cookie'), /^1\./, 'cookie 2 needs Node 22');
  assert.ok(readdirSync(join(packageDir, 'node_modules', 'better-sqlite3', 'build', 'Release')).includes('better_sqlite3.node'));

  const bin = join(prefix, 'bin', 'checkbridge');
  const elsewhere = join(root, 'elsewhere');
  writeTree(elsewhere, { 'conf.d/checks.json': { checks: { hello: { command: 'echo hello', interval: 60, standalone: true } } } });
  const build = JSON.parse(readFileSync(join(ROOT, 'dist', 'build-info.json'), 'utf8'));
  const shown = execFileSync(bin, ['version'], { cwd: elsewhere, encoding: 'utf8' });
  assert.match(shown, new RegExp(`^checkbridge version \\d+\\.\\d+\\.\\d+, build ${build.commit ?? 'unknown'}, built ${build.built_at}`));
  // validate runs from its bundle as installed (npm gives every file one mtime, so the bundle is current).
  assert.equal(execFileSync(bin, ['validate', '--no-config-file', '-d', 'conf.d'], { cwd: elsewhere, encoding: 'utf8' }), 'configuration is valid\n');

  mkdirSync(join(elsewhere, 'state'));
  const daemon = startDaemon(
    ['run', '--no-config-file', '-d', 'conf.d', '--state-dir', 'state', '--socket-port', '0', '--api-port', '0', '--agent-port', '0', '--v2-port', '0'],
    { cwd: elsewhere, bin, env: { CHECKBRIDGE_ADMIN_PASSWORD: 'install-test-admin' } },
  );
  t.after(() => daemon.stop('SIGKILL'));
  await daemon.waitFor((l) => l.msg === 'checkbridge running', 60_000);
  assert.equal(await daemon.stop('SIGTERM'), 0);
  assert.ok(existsSync(join(elsewhere, 'state', 'checkbridge.db')), 'the state directory is the one named, under the working directory');
});
