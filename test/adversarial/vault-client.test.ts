import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson, postJson, eventually, type Instance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { putProvider, putSecret, SECRETS, vaultFor } from '../secrets/vault-setup.js';

const CORE = 'vault-core-material-3Rk';
const APP = 'app-password-8Ty';

const check = (name: string, secret: string) => ({
  command: `echo "${name}: $VALUE"`,
  subscribers: ['test'],
  interval: 3600,
  publish: false,
  handlers: [],
  secrets: [{ name: 'VALUE', secret }],
});

async function instanceWith(t: TestContext, checks: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const root = makeTree({
    'conf.d/client.json': { client: { name: 'vault-host', address: '127.0.0.1', subscriptions: ['test'] } },
    'conf.d/checks.json': { checks: Object.fromEntries(Object.entries(checks).map(([name, secret]) => [name, check(name, secret)])) },
  });
  const instance = await startInstance(root, [], env);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  return instance;
}

/** Runs `name` now and returns its result's check (a fresh one: the previous result is deleted first). */
async function run(api: string, name: string): Promise<Record<string, any>> {
  await getJson(`${api}/results/vault-host/${name}`, { method: 'DELETE' });
  assert.equal((await postJson(`${api}/request`, { check: name })).status, 202);
  const result = await eventually(
    () => getJson(`${api}/results/vault-host/${name}`),
    (r) => r.status === 200,
    20_000,
  );
  assert.equal(result.status, 200, `${name} ran`);
  return result.body.check;
}

// `secret/../../sys/raw/core` requested /v1/sys/raw/core with the vault token.
test('a vault secret id never leaves its KV mount: . and .. segments, encoded forms and empty segments are refused', async (t) => {
  const vault = await vaultFor(t, { mounts: { secret: 'v2', sys: 'v1' } });
  if (!vault) return;
  vault.put('sys', 'raw/core', { value: CORE });
  vault.put('secret', 'app', { password: APP });
  const { api, v2 } = await instanceWith(t, { climb: 'climb', fine: 'fine' });
  const auth = `Bearer ${await adminToken(v2)}`;
  // Stored before the provider exists, so only the read itself can refuse it.
  await putSecret(v2, auth, 'climb', 'vault', 'secret/../../sys/raw/core#value');
  await putSecret(v2, auth, 'fine', 'vault', 'secret/app#password');
  await putProvider(v2, auth, vault, 'vault');

  const climbed = await run(api, 'climb');
  assert.deepEqual(
    vault.requests.filter((r) => !r.path.startsWith('/v1/secret/')),
    [],
    'a request left the secret/ mount',
  );
  assert.equal(climbed.status, 3, `the read left the mount: ${climbed.output}`);
  assert.match(
    climbed.output,
    /Unable to resolve secret "climb" \(VALUE\) from provider "vault": the id "secret\/\.\.\/\.\.\/sys\/raw\/core#value" is refused: its path has a "\.\." segment/,
  );
  const fine = await run(api, 'fine');
  assert.equal(fine.status, 0, fine.output);
  assert.equal(fine.output, 'fine: REDACTED\n');

  // With the provider known, the API refuses such ids at once, naming why.
  const ids: [string, RegExp][] = [
    ['secret/../sys/raw/core#value', /a "\.\." segment/],
    ['secret/./app#password', /a "\." segment/],
    ['secret/%2e%2e/%2e%2e/sys/raw/core#value', /a percent-encoded character/],
    ['secret//app#password', /an empty segment/],
    ['secret/a\\..\\..\\sys#value', /a backslash/],
    ['secret/app\u0000#password', /a control character/],
  ];
  for (const [id, why] of ids) {
    const reply = await call(`${v2}${SECRETS}/namespaces/default/secrets/bad`, 'PUT', auth, {
      type: 'Secret',
      api_version: 'secrets/v1',
      metadata: { name: 'bad' },
      spec: { provider: 'vault', id },
    });
    assert.equal(reply.status, 400, `${JSON.stringify(id)}: ${JSON.stringify(reply.body)}`);
    assert.match(reply.body.message, new RegExp(`^spec\\.id: the id .* is refused: its path has ${why.source}`));
  }
  assert.equal((await call(`${v2}${SECRETS}/namespaces/default/secrets/bad`, 'GET', auth)).status, 404);
});

// The vault client trusted Node's bundled CAs only, not the system's store (which assets use).
// The system store is the file SSL_CERT_FILE names (as OpenSSL and Go read it), so no root-level change is needed.
test('the vault client trusts the system CA store; a configured ca_cert is the only CA trusted', async (t) => {
  const vault = await vaultFor(t, { mounts: { secret: 'v2' } });
  const stranger = await vaultFor(t, { mounts: { secret: 'v2' } });
  if (!vault || !stranger) return;
  vault.put('secret', 'app', { password: APP });
  stranger.put('secret', 'app', { password: APP });
  const { api, v2 } = await instanceWith(t, { system: 'by-system', unknown: 'by-unknown', pinned: 'by-pinned' }, { SSL_CERT_FILE: vault.ca });
  const auth = `Bearer ${await adminToken(v2)}`;
  await putProvider(v2, auth, vault, 'system', { tls: { cname: vault.serverName } });
  await putProvider(v2, auth, stranger, 'unknown', { tls: { cname: stranger.serverName } });
  await putProvider(v2, auth, vault, 'pinned', { tls: { ca_cert: stranger.ca, cname: vault.serverName } });
  for (const [secret, provider] of [
    ['by-system', 'system'],
    ['by-unknown', 'unknown'],
    ['by-pinned', 'pinned'],
  ])
    await putSecret(v2, auth, secret!, provider!, 'secret/app#password');

  const system = await run(api, 'system');
  assert.equal(system.status, 0, `a vault whose CA is in the system store: ${system.output}`);
  assert.equal(system.output, 'system: REDACTED\n');
  // Control: a CA in neither store is not trusted, so the one above was trusted for being in the system store.
  const unknown = await run(api, 'unknown');
  assert.equal(unknown.status, 3);
  assert.match(unknown.output, /the vault is unreachable: (UNABLE_TO_VERIFY_LEAF_SIGNATURE|.*certificate|.*self.signed)/i);
  const pinned = await run(api, 'pinned');
  assert.equal(pinned.status, 3, "tls.ca_cert replaces the trusted CAs, as Vault's own client does");
  assert.match(pinned.output, /the vault is unreachable: (UNABLE_TO_VERIFY_LEAF_SIGNATURE|.*certificate|.*self.signed)/i);
});
