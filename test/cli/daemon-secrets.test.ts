// hideDaemonSecrets rewrites its own process's environment and arguments: it runs in a child, read from outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('../../src/cli/daemon-secrets.js', import.meta.url));
const start = fileURLToPath(new URL('../../src/config/start-environment.js', import.meta.url));

const CHILD = `
const { hideDaemonSecrets } = await import(${JSON.stringify(module)});
const { daemonEnvironment } = await import(${JSON.stringify(start)});
const flag = process.argv[process.argv.indexOf('--store-dsn') + 1];
const warnings = hideDaemonSecrets([
  { option: { flag: '--store-dsn', variable: 'CHECKBRIDGE_STORE_DSN' }, value: flag },
  { option: { flag: '--bridge-api-key', variable: 'CHECKBRIDGE_BRIDGE_API_KEY' }, value: undefined },
]);
console.log(JSON.stringify({
  warnings,
  inEnv: 'CHECKBRIDGE_ADMIN_PASSWORD' in process.env,
  kept: daemonEnvironment().CHECKBRIDGE_ADMIN_PASSWORD,
  plain: process.env.CB_PLAIN,
}));
process.stdin.resume();
`;

test(
  'credentials leave process.env and /proc, secret flags are blanked in the command line, and a secret flag draws a warning',
  { skip: process.platform !== 'linux' },
  async (t) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, 'run', '--store-dsn', 'postgres://u:flagsecret@db/x'], {
      env: { PATH: process.env.PATH, CHECKBRIDGE_ADMIN_PASSWORD: 'hunter2', CB_PLAIN: 'kept' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    t.after(() => child.kill());
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const seen = JSON.parse(line.toString()) as { warnings: string[]; inEnv: boolean; kept: string; plain: string };
    assert.deepEqual(seen.warnings, [
      '--store-dsn puts a secret on the command line, where every local user can read it: use --store-dsn-file FILE, CHECKBRIDGE_STORE_DSN_FILE or CHECKBRIDGE_STORE_DSN instead',
    ]);
    assert.equal(seen.inEnv, false, 'withheld from process.env');
    assert.equal(seen.kept, 'hunter2', 'still the daemon’s own');
    assert.equal(seen.plain, 'kept');
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8');
    assert.doesNotMatch(environ, /hunter2/);
    assert.match(environ, /CB_PLAIN=kept/);
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(!cmdline.includes('postgres://u:flagsecret@db/x'), cmdline.join(' '));
    assert.deepEqual(cmdline.slice(-3, -1), ['--store-dsn', 'x'.repeat('postgres://u:flagsecret@db/x'.length)]);
  },
);

test('nothing secret given: no warnings', { skip: process.platform !== 'linux' }, async (t) => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD.replace("process.argv[process.argv.indexOf('--store-dsn') + 1]", 'undefined')], {
    env: { PATH: process.env.PATH },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.after(() => child.kill());
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  assert.deepEqual((JSON.parse(line.toString()) as { warnings: string[] }).warnings, []);
});
