// Secrets off the command line: file forms of each secret flag, their variables, and the warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree } from '../helpers/tree.js';
import { instanceFor, startInstance, eventually, ADMIN_PASSWORD } from '../helpers/instance.js';
import { startDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';
import { tcpExchange } from '../helpers/net.js';

const CLIENT = { 'conf.d/client.json': { client: { name: 'secret-flags-host', address: '127.0.0.1', subscriptions: [] } } };
const WARNING = /puts a secret on the command line, where every local user can read it/;

/** A v2 backend double that records the Authorization header of each PUT. */
async function backend(t: { after(fn: () => void | Promise<void>): void }): Promise<{ url: string; keys: string[] }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers.authorization));
    req.resume();
    req.on('end', () => res.writeHead(201).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, keys };
}

test('--bridge-api-key-file and CHECKBRIDGE_BRIDGE_API_KEY_FILE: the key (less its line end) reaches the backend, with no warning', async (t) => {
  const bridge = await backend(t);
  const root = makeTree({ ...CLIENT, 'flag.key': 'key-from-flag-file\n', 'env.key': 'key-from-env-file\r\n' });
  t.after(() => removeTree(root));
  for (const [extra, env, key] of [
    [['--bridge-api-key-file', join(root, 'flag.key')], {}, 'key-from-flag-file'],
    [[], { CHECKBRIDGE_BRIDGE_API_KEY_FILE: join(root, 'env.key') }, 'key-from-env-file'],
  ] as const) {
    const instance = await startInstance(root, ['--bridge-url', bridge.url, ...extra], env);
    try {
      await instance.daemon.waitFor((l) => l.msg === 'checkbridge running');
      assert.equal(await tcpExchange(instance.socket, JSON.stringify({ name: 'bridged', output: 'x', status: 2 })), 'ok');
      const seen = await eventually(
        async () => bridge.keys.slice(),
        (keys) => keys.includes(`Key ${key}`),
        15_000,
      );
      assert.ok(seen.includes(`Key ${key}`), `${key}: ${JSON.stringify(seen)}`);
      assert.equal(
        instance.daemon.logs.some((l) => WARNING.test(String(l.msg))),
        false,
      );
    } finally {
      await instance.daemon.stop('SIGKILL');
    }
  }
});

test('--store-dsn as a flag is warned about, naming the safer forms, before the store opens', async (t) => {
  const root = makeTree(CLIENT);
  // Nothing listens on port 1: the start fails after the warning.
  const daemon = startDaemon(['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), '--store-dsn', 'postgres://u:dsn-flag-password@127.0.0.1:1/db']);
  // The daemon stops before its state directory is removed (after-hooks run in the order they are registered).
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const warning = await daemon.waitFor((l) => WARNING.test(String(l.msg)), 15_000);
  assert.equal(warning.level, 40);
  assert.equal(
    warning.msg,
    '--store-dsn puts a secret on the command line, where every local user can read it: use --store-dsn-file FILE, CHECKBRIDGE_STORE_DSN_FILE or CHECKBRIDGE_STORE_DSN instead',
  );
});

test('a secret file that cannot be read, an empty one, or a secret given twice refuses the start, naming the flag and the file', async (t) => {
  const root = makeTree({ ...CLIENT, 'empty.key': '\n', 'good.key': 'k' });
  t.after(() => removeTree(root));
  const run = (extra: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), '--bridge-url', 'http://127.0.0.1:1', ...extra], { env });
  const missing = run(['--bridge-api-key-file', join(root, 'missing.key')]);
  assert.equal(missing.code, 64, missing.stderr);
  assert.match(missing.stderr, new RegExp(`checkbridge: invalid usage: --bridge-api-key-file ${join(root, 'missing.key')}: ENOENT`));
  const empty = run([], { CHECKBRIDGE_BRIDGE_API_KEY_FILE: join(root, 'empty.key') });
  assert.equal(empty.code, 64, empty.stderr);
  assert.match(empty.stderr, new RegExp(`checkbridge: invalid usage: CHECKBRIDGE_BRIDGE_API_KEY_FILE ${join(root, 'empty.key')}: the file is empty`));
  const twice = run(['--bridge-api-key', 'k', '--bridge-api-key-file', join(root, 'good.key')]);
  assert.equal(twice.code, 64, twice.stderr);
  assert.match(twice.stderr, /checkbridge: invalid usage: --bridge-api-key and --bridge-api-key-file are both given: give one of them/);
  const dsn = run(['--store-dsn-file', join(root, 'missing.dsn')]);
  assert.equal(dsn.code, 64, dsn.stderr);
  assert.match(dsn.stderr, new RegExp(`checkbridge: invalid usage: --store-dsn-file ${join(root, 'missing.dsn')}: ENOENT`));
});

test('client commands: --api-key-file and CHECKBRIDGE_API_KEY_FILE authenticate; --api-key still does, with a warning on stderr', async (t) => {
  const { v2, root } = await instanceFor(t, CLIENT);
  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const granted = runCli(['api-key', 'grant', 'admin', '--url', v2], asAdmin);
  assert.equal(granted.code, 0, granted.stderr);
  const key = /apikeys\/(\S+)/.exec(granted.stdout)![1]!;
  const file = join(root, 'api.key');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  const none = { CHECKBRIDGE_API_KEY: '', CHECKBRIDGE_USERNAME: '' };

  const byFlagFile = runCli(['--url', v2, '--api-key-file', file, 'api-key', 'info', key, '--format', 'json'], { env: none });
  assert.equal(byFlagFile.code, 0, byFlagFile.stderr);
  assert.equal(JSON.parse(byFlagFile.stdout).username, 'admin');
  assert.equal(byFlagFile.stderr, '');
  const byEnvFile = runCli(['api-key', 'info', key, '--url', v2, '--format', 'json'], { env: { ...none, CHECKBRIDGE_API_KEY_FILE: file } });
  assert.equal(byEnvFile.code, 0, byEnvFile.stderr);
  assert.equal(byEnvFile.stderr, '');
  const byFlag = runCli(['--url', v2, '--api-key', key, 'api-key', 'info', key, '--format', 'json'], { env: none });
  assert.equal(byFlag.code, 0, byFlag.stderr);
  assert.equal(
    byFlag.stderr,
    'checkbridge: warning: --api-key puts a secret on the command line, where every local user can read it: use --api-key-file FILE, CHECKBRIDGE_API_KEY_FILE or CHECKBRIDGE_API_KEY instead\n',
  );
});
