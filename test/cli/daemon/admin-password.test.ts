import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree } from '../../helpers/tree.js';
import { startDaemon } from '../../helpers/daemon.js';

test('a generated admin password never reaches a piped log: it is in a 0600 file in the state directory, and it signs in', async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'box', subscriptions: [] } } });
  t.after(() => removeTree(root));
  const state = join(root, 'state');
  const daemon = startDaemon(
    [
      'run',
      '--no-config-file',
      '-d',
      join(root, 'conf.d'),
      '--state-dir',
      state,
      '--socket-port',
      '0',
      '--api-port',
      '0',
      '--agent-port',
      '0',
      '--v2-port',
      '0',
    ],
    {
      env: { CHECKBRIDGE_ADMIN_PASSWORD: '' },
    },
  );
  let stdout = '';
  daemon.proc.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  t.after(() => daemon.stop('SIGKILL'));
  const announced = await daemon.waitFor((l) => typeof l.file === 'string' && String(l.msg).startsWith('created user "admin"'), 30_000);
  const v2 = `http://${(await daemon.waitFor((l) => l.msg === 'v2 API listening', 30_000)).address}`;
  const file = join(state, 'admin-password');
  assert.equal(announced.file, file);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const password = readFileSync(file, 'utf8').trim();
  assert.ok(password.length >= 20);
  for (const line of daemon.logs) assert.ok(!JSON.stringify(line).includes(password), `the password is in a log line: ${JSON.stringify(line)}`);
  assert.ok(!stdout.includes(password), 'the password is on stdout');
  const signIn = await fetch(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from(`admin:${password}`).toString('base64') } });
  assert.equal(signIn.status, 200);
});
