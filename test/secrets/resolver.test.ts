// Resolving a definition's secret references from the Secret and provider resources of a real SQLite store, at execution time.
import { test, before, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretsResolver, type OutageChange, type Resolution } from '../../src/secrets/resolver.js';
import { PROVIDER_KIND, SECRET_KIND } from '../../src/secrets/model.js';
import type { ResourceTables } from '../../src/store/index.js';
import { startVaultDouble, type VaultDouble } from '../servers/vault-double.js';
import { opensslMissing } from '../servers/openssl-ca.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteStore } from '../helpers/sqlite-store.js';
import { removeTree } from '../helpers/tree.js';

const missing = opensslMissing();
if (missing && process.env.CI === 'true') throw new Error(`${missing}: required in CI`);
const skip = missing ?? false;
const ENV_NAME = 'CHECKBRIDGE_RESOLVER_TEST_VALUE';

let vault: VaultDouble;
let pki: string;
before(async () => {
  process.env[ENV_NAME] = 'from-the-environment';
  if (skip) return;
  pki = mkdtempSync(join(tmpdir(), 'checkbridge-vault-'));
  vault = await startVaultDouble(pki, { mounts: { secret: 'v2' } });
  vault.put('secret', 'db', { password: 'vault-value' });
});
after(async () => {
  delete process.env[ENV_NAME];
  await vault?.close();
  if (pki) removeTree(pki);
});

const putSecret = (v2: ResourceTables, namespace: string, name: string, provider: string, id: string) =>
  v2.putResource(SECRET_KIND, namespace, name, { metadata: { name, namespace }, spec: { provider, id } });
const putVault = (v2: ResourceTables, name: string, client: Record<string, unknown> = {}) =>
  v2.putResource(PROVIDER_KIND, '', name, {
    type: 'ExternalProvider',
    metadata: { name },
    spec: {
      client: {
        address: vault.url,
        token: vault.token,
        version: 'v2',
        max_retries: 0,
        timeout: '5s',
        tls: { ca_cert: vault.ca, cname: vault.serverName },
        ...client,
      },
    },
  });

/** A resolution with its environment as a plain object (it is built without a prototype). */
const plain = (resolution: Resolution) => (resolution.ok ? { ...resolution, env: { ...resolution.env } } : resolution);

/** A resolver over a fresh store holding the Env provider `env`, and the outage changes it reports. */
function resolverOf(t: TestContext) {
  const v2 = sqliteStore(t).resources;
  v2.putResource(PROVIDER_KIND, '', 'env', { type: 'Env', metadata: { name: 'env' }, spec: {} });
  const outages: OutageChange[] = [];
  const { logger, lines } = capturedLogger();
  const resolver = new SecretsResolver({ store: v2, logger, onOutage: (change) => outages.push(change) });
  t.after(() => resolver.close());
  return { v2, resolver, outages, lines };
}

test('references resolve to their values by environment name, and the values are listed for redaction', async (t) => {
  const { v2, resolver } = resolverOf(t);
  putSecret(v2, 'default', 'home', 'env', ENV_NAME);
  const resolution = await resolver.resolve('default', [
    { name: 'FIRST', secret: 'home' },
    { name: 'SECOND', secret: 'home' },
  ]);
  assert.equal(Object.getPrototypeOf(resolution.ok && resolution.env), null, 'no inherited name can pose as a variable');
  assert.deepEqual(plain(resolution), {
    ok: true,
    env: { FIRST: 'from-the-environment', SECOND: 'from-the-environment' },
    values: ['from-the-environment', 'from-the-environment'],
  });
});

test('a Secret is looked up in the namespace the definition runs in, which may be given as a function', async (t) => {
  const { v2, resolver } = resolverOf(t);
  putSecret(v2, 'prod', 'home', 'env', ENV_NAME);
  let namespace = 'default';
  const lookup = resolver.in(() => namespace);
  const refs = [{ name: 'X', secret: 'home' }];
  assert.deepEqual(await lookup(refs), { ok: false, output: 'Unable to resolve secret "home" (X): no Secret named "home" in namespace "default"' });
  namespace = 'prod';
  assert.equal((await lookup(refs)).ok, true);
  assert.equal((await resolver.in('prod')(refs)).ok, true);
});

test('the first reference that cannot be resolved fails the whole execution with why, and is logged without a value', async (t) => {
  const { v2, resolver, lines } = resolverOf(t);
  putSecret(v2, 'default', 'orphan', 'gone', 'x');
  putSecret(v2, 'default', 'odd', 'weird', 'x');
  v2.putResource(PROVIDER_KIND, '', 'weird', { type: 'Carrier', metadata: { name: 'weird' }, spec: {} });
  putSecret(v2, 'default', 'unset', 'env', 'CHECKBRIDGE_RESOLVER_NOT_SET');
  const output = async (secret: string) => ((await resolver.resolve('default', [{ name: 'V', secret }])) as { output: string }).output;
  assert.equal(await output('orphan'), 'Unable to resolve secret "orphan" (V) from provider "gone": no secrets provider named "gone"');
  assert.equal(await output('odd'), 'Unable to resolve secret "odd" (V) from provider "weird": unknown provider type Carrier');
  assert.equal(
    await output('unset'),
    'Unable to resolve secret "unset" (V) from provider "env": the environment variable CHECKBRIDGE_RESOLVER_NOT_SET is not set in the checkbridge process',
  );
  const warning = lines.find((l) => l.msg === 'secret not resolved: the execution fails' && l.reason === 'no secrets provider named "gone"');
  assert.equal(warning?.provider, 'gone');
  assert.equal(warning?.namespace, 'default');
  assert.equal(warning?.name, 'V');
});

test('an unexpected error reading a provider fails the execution as such', async (t) => {
  const { v2, resolver } = resolverOf(t);
  v2.putResource(PROVIDER_KIND, '', 'broken', { type: 'ExternalProvider', metadata: { name: 'broken' }, spec: {} });
  putSecret(v2, 'default', 'db', 'broken', 'secret/db#password');
  const resolution = await resolver.resolve('default', [{ name: 'DB', secret: 'db' }]);
  assert.equal(resolution.ok, false);
  assert.match((resolution as { output: string }).output, /^Unable to resolve secret "db" \(DB\) from provider "broken": unexpected error: /);
});

test('a vault secret resolves; the vault going down is reported once, and once again when it answers', { skip }, async (t) => {
  const { v2, resolver, outages, lines } = resolverOf(t);
  putVault(v2, 'vault');
  putSecret(v2, 'default', 'db', 'vault', 'secret/db#password');
  const refs = [{ name: 'DB', secret: 'db' }];
  assert.deepEqual(plain(await resolver.resolve('default', refs)), { ok: true, env: { DB: 'vault-value' }, values: ['vault-value'] });
  assert.deepEqual(outages, []);
  vault.mode = 'fail';
  try {
    for (let i = 0; i < 2; i++)
      assert.deepEqual(await resolver.resolve('default', refs), {
        ok: false,
        output: 'Unable to resolve secret "db" (DB) from provider "vault": the vault answered 503',
      });
  } finally {
    vault.mode = 'ok';
  }
  assert.deepEqual(outages, [{ provider: 'vault', down: true, reason: 'the vault answered 503' }]);
  assert.equal((await resolver.resolve('default', refs)).ok, true);
  assert.deepEqual(outages[1], { provider: 'vault', down: false, reason: 'the provider answered again' });
  assert.equal(outages.length, 2);
  assert.ok(lines.some((l) => l.msg === 'secrets provider is unavailable' && l.provider === 'vault'));
  assert.ok(lines.some((l) => l.msg === 'secrets provider is available again'));
});

test('a changed provider is read with its new settings at the next execution', { skip }, async (t) => {
  const { v2, resolver, outages } = resolverOf(t);
  putVault(v2, 'vault', { token: 'stale-token' });
  putSecret(v2, 'default', 'db', 'vault', 'secret/db#password');
  const refs = [{ name: 'DB', secret: 'db' }];
  assert.deepEqual(await resolver.resolve('default', refs), {
    ok: false,
    output: 'Unable to resolve secret "db" (DB) from provider "vault": the vault refused the token (403 permission denied)',
  });
  assert.deepEqual(outages, [], 'a refused token is no outage');
  putVault(v2, 'vault');
  assert.equal((await resolver.resolve('default', refs)).ok, true);
});
