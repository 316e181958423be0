import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { ADMIN_PASSWORD, startInstance, getJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const CONF = { 'conf.d/client.json': { client: { name: 'reset-host', subscriptions: [] } } };
const basic = (password: string) => ({ authorization: 'Basic ' + Buffer.from(`admin:${password}`).toString('base64') });
const withoutAdminPassword = { CHECKBRIDGE_ADMIN_PASSWORD: '' };

test('reset-admin-password: refused while the daemon runs; offline, the new password logs in to the v2 API and the old one no longer does', async (t) => {
  const root = makeTree(CONF);
  t.after(() => removeTree(root));
  const state = join(root, 'state');
  const running = await startInstance(root);
  try {
    const refused = runCli(['reset-admin-password', '--state-dir', state], { env: { CHECKBRIDGE_ADMIN_PASSWORD: 'never-set' } });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /the state store is in use by a running checkbridge; stop it first: .*checkbridge\.db is open in another process/);
    // The refusal changed nothing: the old password still signs in.
    assert.equal((await getJson(`${running.v2}/auth`, { headers: basic(ADMIN_PASSWORD) })).status, 200);
  } finally {
    await running.daemon.stop();
  }

  const fromEnv = runCli(['reset-admin-password', '--state-dir', state], { env: { CHECKBRIDGE_ADMIN_PASSWORD: 'second-password' } });
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
  assert.equal(fromEnv.stdout, 'password of admin reset\n');
  const passwordFile = join(root, 'password');
  writeFileSync(passwordFile, 'third-password\n', { mode: 0o600 });
  assert.equal(runCli(['reset-admin-password', '--state-dir', state, '--password-file', passwordFile]).code, 0);
  const generated = runCli(['reset-admin-password', '--state-dir', state], { env: withoutAdminPassword });
  assert.equal(generated.code, 0, generated.stderr);
  const password = /^password of admin reset to (\S+)\n$/.exec(generated.stdout)?.[1];
  assert.ok(password, generated.stdout);

  const restarted = await startInstance(root);
  try {
    assert.equal((await getJson(`${restarted.v2}/auth`, { headers: basic(password) })).status, 200);
    for (const old of [ADMIN_PASSWORD, 'second-password', 'third-password'])
      assert.equal((await getJson(`${restarted.v2}/auth`, { headers: basic(old) })).status, 401);
  } finally {
    await restarted.daemon.stop();
  }
});

test('reset-admin-password: names a missing store', (t) => {
  const root = makeTree({});
  t.after(() => removeTree(root));
  const missing = runCli(['reset-admin-password', '--state-dir', join(root, 'state')], { env: withoutAdminPassword });
  assert.equal(missing.code, 64);
  assert.match(missing.stderr, /no store at .*state\/checkbridge\.db/);
});
