import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { BIN } from '../helpers/paths.js';

/** `login --oidc --no-browser` started, with the sign-in URL it printed. */
async function startLogin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcessWithoutNullStreams; signIn: URL; stdout: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, CHECKBRIDGE_URL: '', ...env } });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let stderr = '';
  while (!stderr.includes('\n')) {
    const [chunk] = (await once(child.stderr, 'data')) as [Buffer];
    stderr += chunk.toString();
  }
  const match = /^Sign in at: (\S+)\n/.exec(stderr);
  assert.ok(match, stderr);
  return { child, signIn: new URL(match[1]!), stdout: () => stdout };
}

test('the sign-in URL names the API, the provider and a loopback callback; the tokens posted there are printed as JSON', async (t) => {
  const { child, signIn, stdout } = await startLogin(['--url', 'https://sensu.example:8080//', 'login', '--oidc', '--no-browser']);
  t.after(() => child.kill());
  assert.equal(signIn.origin + signIn.pathname, 'https://sensu.example:8080/api/enterprise/authentication/v2/oidc/authorize');
  assert.equal(signIn.searchParams.get('provider'), null);
  const callback = new URL(signIn.searchParams.get('return_to')!);
  assert.equal(callback.hostname, '127.0.0.1');
  assert.equal(callback.pathname, '/callback');

  assert.equal((await fetch(callback, { method: 'GET' })).status, 404, 'only a POST to /callback');
  const incomplete = await fetch(callback, { method: 'POST', body: new URLSearchParams({ access_token: 'a' }) });
  assert.equal(incomplete.status, 400);
  assert.equal(await incomplete.text(), 'missing tokens\n');

  const done = await fetch(callback, { method: 'POST', body: new URLSearchParams({ access_token: 'at-1', refresh_token: 'rt-1', expires_at: '1700000000' }) });
  assert.equal(done.status, 200);
  assert.match(await done.text(), /Signed in: you may close this window/);
  const [code] = (await once(child, 'close')) as [number];
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout()), { access_token: 'at-1', refresh_token: 'rt-1', expires_at: 1700000000 });
});

test('--provider is passed on to the API, found at CHECKBRIDGE_URL when --url is not given', async (t) => {
  const { child, signIn } = await startLogin(['login', '--oidc', '--no-browser', '--provider', 'okta'], { CHECKBRIDGE_URL: 'http://api.test' });
  t.after(() => child.kill());
  assert.equal(signIn.origin, 'http://api.test');
  assert.equal(signIn.searchParams.get('provider'), 'okta');
});
