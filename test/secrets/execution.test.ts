import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance, getJson, postJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { runCli } from '../helpers/cli.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { putProvider, putSecret, SECRETS, vaultFor } from './vault-setup.js';

const ENV_VALUE = 'env-value-5f3a9c';
const V2_VALUE = 'vault-kv2-value-81be07';
const V1_VALUE = 'vault-kv1-value-c4d2aa';
const VALUES = [ENV_VALUE, V2_VALUE, V1_VALUE];

const absent = (text: string, where: string) => {
  for (const value of VALUES) assert.ok(!text.includes(value), `${where} shows a secret value`);
};

test('secrets from Env and a vault (KV v1 and v2, mutual TLS) reach a check, its hook, a pipe handler and mutators, and are shown nowhere', async (t) => {
  const vault = await vaultFor(t, { mounts: { secret: 'v2', kv: 'v1' }, mutualTls: true });
  if (!vault) return;
  vault.put('secret', 'database', { password: V2_VALUE });
  vault.put('kv', 'mq', { password: V1_VALUE });
  const out = mkdtempSync(join(tmpdir(), 'checkbridge-secrets-out-'));
  const root = makeTree({
    'conf.d/client.json': { client: { name: 'secrets-host', address: '127.0.0.1', subscriptions: ['test'] } },
    'conf.d/checks.json': {
      checks: {
        'with-secrets': {
          command: `printf %s "$ENV_PASS|$V2_PASS|$V1_PASS" > ${out}/check.out; echo "check saw $ENV_PASS $V2_PASS $V1_PASS"; exit 2`,
          subscribers: ['test'],
          interval: 3600,
          publish: false,
          handlers: ['secret-pipe'],
          secrets: [
            { name: 'ENV_PASS', secret: 'env-db' },
            { name: 'V2_PASS', secret: 'vault-db' },
            { name: 'V1_PASS', secret: 'vault-mq' },
          ],
          hooks: {
            critical: { command: `printf %s "$HOOK_PASS" > ${out}/hook.out; echo "hook saw $HOOK_PASS"`, secrets: [{ name: 'HOOK_PASS', secret: 'vault-db' }] },
          },
        },
      },
    },
    'conf.d/handlers.json': {
      handlers: {
        'secret-pipe': {
          type: 'pipe',
          mutator: 'secret-mutator',
          command: `cat > ${out}/handler.stdin; printf %s "$H_PASS" > ${out}/handler.out; echo "handler saw $H_PASS"`,
          secrets: [{ name: 'H_PASS', secret: 'env-db' }],
        },
      },
      mutators: { 'secret-mutator': { command: `printf %s "$M_PASS" > ${out}/mutator.out; cat`, secrets: [{ name: 'M_PASS', secret: 'vault-mq' }] } },
    },
  });
  const instance = await startInstance(root, [], { CB_TEST_DB_PASS: ENV_VALUE });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    for (const dir of [root, out]) removeTree(dir);
  });
  const { api, v2, daemon } = instance;
  const auth = `Bearer ${await adminToken(v2)}`;
  const tls = { ca_cert: vault.ca, client_cert: vault.client.cert, client_key: vault.client.key, cname: vault.serverName };
  await putProvider(v2, auth, vault, 'vault', { tls });
  await putProvider(v2, auth, vault, 'vault-v1', { version: 'v1', tls });
  await putSecret(v2, auth, 'env-db', 'env', 'CB_TEST_DB_PASS');
  await putSecret(v2, auth, 'vault-db', 'vault', 'secret/database#password');
  await putSecret(v2, auth, 'vault-mq', 'vault-v1', 'kv/mq#password');

  assert.equal((await postJson(`${api}/request`, { check: 'with-secrets' })).status, 202);
  await eventually(async () => existsSync(join(out, 'handler.out')), Boolean, 20_000);
  assert.equal(readFileSync(join(out, 'check.out'), 'utf8'), `${ENV_VALUE}|${V2_VALUE}|${V1_VALUE}`, 'the check command got all three');
  assert.equal(readFileSync(join(out, 'hook.out'), 'utf8'), V2_VALUE, 'the hook got its own secret');
  assert.equal(readFileSync(join(out, 'mutator.out'), 'utf8'), V1_VALUE, 'the mutator got its secret');
  assert.equal(readFileSync(join(out, 'handler.out'), 'utf8'), ENV_VALUE, 'the pipe handler got its secret');
  absent(readFileSync(join(out, 'handler.stdin'), 'utf8'), 'the event the handler was given');
  assert.ok(
    vault.requests.some((r) => r.path === '/v1/secret/data/database') && vault.requests.some((r) => r.path === '/v1/kv/mq'),
    'KV v2 and v1 routes were read',
  );

  const event = await getJson(`${api}/events/secrets-host/with-secrets`);
  assert.equal(event.status, 200);
  assert.equal(event.body.check.output, 'check saw REDACTED REDACTED REDACTED\n', 'the output that echoed them is redacted before it is stored');
  assert.equal(event.body.check.hooks.critical.output, 'hook saw REDACTED\n');
  assert.deepEqual(
    event.body.check.secrets.map((s: { secret: string }) => s.secret),
    ['env-db', 'vault-db', 'vault-mq'],
    'the references themselves are shown',
  );
  const logged = await daemon.waitFor((l) => l.msg === 'handler output' && l.handler === 'secret-pipe');
  assert.deepEqual(logged.output, ['handler saw REDACTED'], 'handler output is redacted before it is logged');

  // The v2 pipeline: a Handler and a Mutator resource with secrets.
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal(
    (
      await call(`${ns}/mutators/v2-mutator`, 'PUT', auth, {
        command: `printf %s "$VM" > ${out}/v2-mutator.out; cat`,
        secrets: [{ name: 'VM', secret: 'vault-mq' }],
      })
    ).status,
    201,
  );
  const handler = {
    type: 'pipe',
    mutator: 'v2-mutator',
    command: `cat >/dev/null; printf %s "$VH" > ${out}/v2-handler.out; echo "v2 handler saw $VH"`,
    secrets: [{ name: 'VH', secret: 'vault-db' }],
  };
  assert.equal((await call(`${ns}/handlers/v2-handler`, 'PUT', auth, handler)).status, 201);
  const bad = await call(`${ns}/handlers/bad`, 'PUT', auth, { ...handler, secrets: [{ name: '1-bad', secret: 'x' }] });
  assert.equal(bad.status, 400, 'a malformed secrets attribute is refused');
  const posted = await call(`${ns}/events`, 'POST', auth, {
    entity: { entity_class: 'proxy', metadata: { name: 'v2-proxy', namespace: 'default' } },
    check: { metadata: { name: 'v2-check' }, status: 2, interval: 60, output: 'down', handlers: ['v2-handler'] },
  });
  assert.equal(posted.status, 201, JSON.stringify(posted.body));
  await eventually(async () => existsSync(join(out, 'v2-handler.out')), Boolean, 15_000);
  assert.equal(readFileSync(join(out, 'v2-handler.out'), 'utf8'), V2_VALUE);
  assert.equal(readFileSync(join(out, 'v2-mutator.out'), 'utf8'), V1_VALUE);
  const v2Logged = await daemon.waitFor((l) => l.msg === 'handler output' && l.handler === 'v2-handler');
  assert.equal(v2Logged.output, 'v2 handler saw REDACTED\n');

  // Every API read: nothing shows a value; the vault token is not shown either.
  const reads = [
    `${api}/events`,
    `${api}/events/secrets-host/with-secrets`,
    `${api}/checks`,
    `${api}/checks/with-secrets`,
    `${api}/results`,
    `${api}/settings`,
  ].map((url) => getJson(url));
  const v2Reads = [
    `${ns}/events`,
    '/api/core/v2/events',
    `${ns}/handlers`,
    `${ns}/mutators`,
    `${SECRETS}/providers`,
    `${SECRETS}/providers/vault`,
    `${SECRETS}/secrets`,
    `${SECRETS}/namespaces/default/secrets/vault-db`,
  ].map((path) => call(path.startsWith('http') ? path : `${v2}${path}`, 'GET', auth));
  const bodies = await Promise.all([...reads, ...v2Reads]);
  for (const reply of bodies) assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const everything = bodies.map((r) => JSON.stringify(r.body)).join('\n');
  absent(everything, 'an API read');
  assert.ok(!everything.includes(vault.token), 'the vault token is not shown');
  assert.match(everything, /"secret":"vault-db"/, 'secret references are not redacted away');
  const printed = runCli(['print-config', join(root, 'conf.d')]);
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(printed.stdout, /"secret": "env-db"/, 'print-config shows references');
  absent(printed.stdout, 'print-config');
  absent(JSON.stringify(daemon.logs), 'the logs');
});
