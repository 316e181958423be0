import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/paths.js';
import { instanceFor } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';

// Asynchronous: runCli would block this process's event loop, which reads the daemon's log pipe meanwhile.
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const NO_CREDENTIALS = { CHECKBRIDGE_API_KEY: '', CHECKBRIDGE_API_KEY_FILE: '', CHECKBRIDGE_USERNAME: '', CHECKBRIDGE_PASSWORD: '', CHECKBRIDGE_URL: '' };

test('dump and create that cannot reach the API say what to check', async (t) => {
  const root = makeTree({ 'check.json': { type: 'CheckConfig', api_version: 'core/v2', metadata: { name: 'a' }, spec: { command: 'true', interval: 60 } } });
  t.after(() => removeTree(root));
  const url = await closedPortUrl();
  for (const args of [
    ['dump', 'checks'],
    ['create', '-f', join(root, 'check.json')],
  ]) {
    const result = await cli(['--url', url, ...args], { ...NO_CREDENTIALS, CHECKBRIDGE_API_KEY: 'some-key' });
    assert.equal(result.code, 1, args[0]);
    assert.match(
      result.stderr,
      new RegExp(`${url}: ECONNREFUSED: cannot reach the v2 API: check --url \\(or CHECKBRIDGE_URL\\) and that \`checkbridge run\` serves the v2 API there`),
      args[0],
    );
  }
});

test('a refused password or API key says which credentials to check', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'box', subscriptions: [] } } });
  const badPassword = await cli(['--url', v2, 'dump', 'checks'], { ...NO_CREDENTIALS, CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: 'wrong' });
  assert.equal(badPassword.code, 1);
  assert.match(badPassword.stderr, /\/auth: 401: the user name or password was refused: check CHECKBRIDGE_USERNAME and CHECKBRIDGE_PASSWORD/);
  const badKey = await cli(['--url', v2, 'dump', 'checks'], { ...NO_CREDENTIALS, CHECKBRIDGE_API_KEY: 'not-a-key' });
  assert.equal(badKey.code, 1);
  assert.match(badKey.stderr, /401: the credentials were refused: check the API key from --api-key-file, CHECKBRIDGE_API_KEY_FILE or CHECKBRIDGE_API_KEY/);
});
