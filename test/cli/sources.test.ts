import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { ROOT } from '../helpers/paths.js';
import { startInstance } from '../helpers/instance.js';

// A legacy host: /etc/sensu/config.json holds the broker and the API credentials, conf.d the checks.
const LEGACY_HOST = {
  'etc/config.json': { rabbitmq: { host: 'mq.example', port: 5671 }, api: { user: 'legacy', password: 'secret' } },
  'etc/conf.d/checks.json': { checks: { disk: { command: 'true', interval: 60, standalone: true } } },
  'other.json': { api: { port: 4999 } },
};

function legacyHost(t: { after(fn: () => void): void }): { root: string; env: NodeJS.ProcessEnv } {
  const root = realpathSync(makeTree(LEGACY_HOST));
  t.after(() => removeTree(root));
  return { root, env: { CHECKBRIDGE_LEGACY_ETC: join(root, 'etc'), CHECKBRIDGE_CONFIG_FILE: '', CHECKBRIDGE_CONFIG_DIR: '' } };
}

test('naming only a directory keeps the default config.json, as legacy sensu-server -d DIR does', (t) => {
  const { root, env } = legacyHost(t);
  for (const args of [['-d', join(root, 'etc/conf.d')], [join(root, 'etc/conf.d')]]) {
    const result = runCli(['print-config', ...args], { env, cwd: root });
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout);
    assert.equal(printed.rabbitmq.host, 'mq.example', args.join(' '));
    assert.equal(printed.api.user, 'legacy');
    assert.ok(printed.checks.disk);
  }
  const explicit = JSON.parse(runCli(['print-config', '-c', join(root, 'other.json'), '-d', join(root, 'etc/conf.d')], { env, cwd: root }).stdout);
  assert.equal(explicit.api.port, 4999);
  assert.equal(explicit.rabbitmq, undefined, 'an explicit -c replaces the default');
  const none = JSON.parse(runCli(['print-config', '--no-config-file', '-d', join(root, 'etc/conf.d')], { env, cwd: root }).stdout);
  assert.equal(none.rabbitmq, undefined, '--no-config-file loads no config.json');
});

test('every command that loads configuration says which files and directories it read', (t) => {
  const { root, env } = legacyHost(t);
  const expected = `checkbridge: configuration read from ${join(root, 'etc/config.json')}, ${join(root, 'etc/conf.d')} (1 file)\n`;
  for (const command of [['print-config'], ['validate'], ['render', 'disk'], ['exec', 'disk'], ['schedule', '--for', '1m'], ['compile']]) {
    const result = runCli([...command, '-d', join(root, 'etc/conf.d')], { env, cwd: root });
    assert.ok(result.stderr.startsWith(expected), `${command[0]}: ${result.stderr}`);
  }
  const report = JSON.parse(runCli(['validate', '--json', '-d', join(root, 'etc/conf.d')], { env, cwd: root }).stdout);
  assert.deepEqual(report.read, { config_file: join(root, 'etc/config.json'), config_dirs: [{ dir: join(root, 'etc/conf.d'), files: 1 }] });
});

test('validate with nothing to read says where it looked', (t) => {
  const root = realpathSync(makeTree({ 'etc/.keep': '' }));
  t.after(() => removeTree(root));
  const result = runCli(['validate'], {
    env: { CHECKBRIDGE_LEGACY_ETC: join(root, 'etc'), CHECKBRIDGE_CONFIG_FILE: '', CHECKBRIDGE_CONFIG_DIR: '' },
    cwd: root,
  });
  assert.equal(result.code, 2);
  assert.match(
    result.stdout,
    new RegExp(
      `no configuration found: looked for ${join(root, 'etc/config.json')}, ${join(root, 'etc/conf.d')} and ${join(root, 'conf.d')}; name a file with -c or a directory with -d`,
    ),
  );
  assert.doesNotMatch(result.stdout, /insufficient permissions/);
});

test('the daemon logs what it read at start', async (t) => {
  const { root, env } = legacyHost(t);
  const instance = await startInstance(join(root, 'etc'), [], env);
  t.after(() => instance.daemon.stop('SIGKILL'));
  const line = await instance.daemon.waitFor((l) => String(l.msg).startsWith('configuration read from'));
  assert.equal(line.config_file, join(root, 'etc/config.json'));
  assert.deepEqual(line.config_dirs, [{ dir: join(root, 'etc/conf.d'), files: 1 }]);
});

test('npm start names the bundled conf.d and a local state directory, never /etc/sensu', () => {
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  assert.match(start, /checkbridge run --no-config-file -d conf\.d --state-dir state$/);
});
