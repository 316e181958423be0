// Reading a vault's key/value stores (KV v1 and v2) against the HTTPS vault double: paths, answers, retries, timeouts, rate limits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VaultProvider, vaultPathOf } from '../../src/secrets/vault-provider.js';
import { SecretFailure } from '../../src/secrets/failure.js';
import type { VaultClientSpec } from '../../src/secrets/model.js';
import { startVaultDouble, type VaultDouble } from '../servers/vault-double.js';
import { opensslMissing } from '../servers/openssl-ca.js';
import { removeTree } from '../helpers/tree.js';

const missing = opensslMissing();
if (missing && process.env.CI === 'true') throw new Error(`${missing}: required in CI`);
const skip = missing ?? false;

let vault: VaultDouble;
let pki: string;
before(async () => {
  if (skip) return;
  pki = mkdtempSync(join(tmpdir(), 'checkbridge-vault-'));
  vault = await startVaultDouble(pki, { mounts: { secret: 'v2', kv: 'v1' } });
  vault.put('secret', 'app/db', { password: 'v2-value', port: 5432 as unknown as string });
  vault.put('kv', 'legacy', { token: 'v1-value' });
});
after(async () => {
  await vault?.close();
  if (pki) removeTree(pki);
});

/** A provider for the double, trusting its CA and name; `client` replaces any of those settings. */
function providerFor(client: Partial<VaultClientSpec> = {}): VaultProvider {
  const provider = new VaultProvider({
    address: vault.url,
    token: vault.token,
    version: 'v2',
    max_retries: 0,
    timeout: '5s',
    tls: { ca_cert: vault.ca, cname: vault.serverName },
    ...client,
  });
  return provider;
}

/** The failure `promise` rejects with: its reason and whether it says the vault is down. */
async function failureOf(promise: Promise<unknown>): Promise<{ reason: string; outage: boolean }> {
  const error = await promise.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SecretFailure, String(error));
  return { reason: error.reason, outage: error.outage };
}

test('an id is path#field: KV v1 reads the path, KV v2 the data under its mount', () => {
  assert.deepEqual(vaultPathOf('secret/app/db#password', 'v1'), { path: '/v1/secret/app/db', field: 'password' });
  assert.deepEqual(vaultPathOf('/secret/app/db/#password', 'v2'), { path: '/v1/secret/data/app/db', field: 'password' });
  // The last # starts the field; one before it is part of the path, encoded.
  assert.deepEqual(vaultPathOf('kv/a b#x#y', 'v1'), { path: '/v1/kv/a%20b%23x', field: 'y' });
});

test('an id that is not path#field, or whose path could leave its mount, is refused', () => {
  const reason = (id: string, version: 'v1' | 'v2' = 'v1') => {
    try {
      vaultPathOf(id, version);
    } catch (error) {
      assert.ok(error instanceof SecretFailure && !error.outage);
      return error.reason;
    }
    return assert.fail(`${id} was taken`);
  };
  assert.equal(reason('secret/db'), 'the id "secret/db" is not path#field');
  assert.equal(reason('secret/db#'), 'the id "secret/db#" is not path#field');
  assert.equal(reason('secret/../sys#x'), 'the id "secret/../sys#x" is refused: its path has a ".." segment');
  assert.equal(reason('secret//db#x'), 'the id "secret//db#x" is refused: its path has an empty segment (//)');
  assert.equal(reason('secret/%2e%2e#x'), 'the id "secret/%2e%2e#x" is refused: its path has a percent-encoded character');
  assert.equal(reason('secret\\db#x'), 'the id "secret\\\\db#x" is refused: its path has a backslash');
  assert.equal(reason('secret/d\nb#x'), 'the id "secret/d\\nb#x" is refused: its path has a control character');
  assert.equal(reason('secret#x', 'v2'), 'the id "secret#x" needs <mount>/<path>#field for a KV v2 store');
});

test('a KV v2 and a KV v1 field are read; a value that is not a string comes as JSON', { skip }, async () => {
  const v2 = providerFor();
  const v1 = providerFor({ version: 'v1' });
  try {
    assert.equal(await v2.get('secret/app/db#password'), 'v2-value');
    assert.equal(await v2.get('secret/app/db#port'), '5432');
    assert.equal(await v1.get('kv/legacy#token'), 'v1-value');
  } finally {
    v2.close();
    v1.close();
  }
});

test('a missing path, a missing field and a refused token are final answers, not outages', { skip }, async () => {
  const provider = providerFor({ max_retries: 3 });
  const wrongToken = providerFor({ token: 'not-the-token' });
  try {
    const before = vault.requests.length;
    assert.deepEqual(await failureOf(provider.get('secret/nothing#x')), { reason: 'no such path in the vault', outage: false });
    assert.equal(vault.requests.length, before + 1, 'not retried');
    assert.deepEqual(await failureOf(provider.get('secret/app/db#user')), { reason: 'the vault has no field "user" at that path', outage: false });
    assert.deepEqual(await failureOf(wrongToken.get('secret/app/db#password')), {
      reason: 'the vault refused the token (403 permission denied)',
      outage: false,
    });
  } finally {
    provider.close();
    wrongToken.close();
  }
});

test('the token goes over TLS only, to a trusted vault', { skip }, async () => {
  const plain = providerFor({ address: vault.url.replace('https://', 'http://') });
  assert.deepEqual(await failureOf(plain.get('secret/app/db#password')), { reason: 'the vault works only over TLS (an https:// address)', outage: false });
  const unreadable = providerFor({ tls: { ca_cert: join(pki, 'no-such-ca.crt'), cname: vault.serverName } });
  assert.match((await failureOf(unreadable.get('secret/app/db#password'))).reason, /^cannot read tls\.ca_cert .*no-such-ca\.crt: ENOENT$/);
  const untrusted = providerFor({ tls: { cname: vault.serverName } });
  const refused = await failureOf(untrusted.get('secret/app/db#password'));
  assert.match(refused.reason, /^the vault is unreachable: /);
  assert.equal(refused.outage, true);
  untrusted.close();
});

test('a 5xx answer is retried up to max_retries, then an outage naming the status', { skip }, async () => {
  const provider = providerFor({ max_retries: 2 });
  vault.mode = 'fail';
  try {
    const before = vault.requests.length;
    assert.deepEqual(await failureOf(provider.get('secret/app/db#password')), { reason: 'the vault answered 503', outage: true });
    assert.equal(vault.requests.length, before + 3);
  } finally {
    vault.mode = 'ok';
    provider.close();
  }
});

test('a dropped connection is an outage; the timeout bounds the whole call', { skip }, async () => {
  // A drop is told from a timeout only when the timeout leaves room for a TLS handshake on a loaded machine.
  const roomy = providerFor({ timeout: '10s' });
  const provider = providerFor({ timeout: '300ms' });
  try {
    vault.mode = 'drop';
    const dropped = await failureOf(roomy.get('secret/app/db#password'));
    assert.match(dropped.reason, /^the vault is unreachable: /);
    assert.equal(dropped.outage, true);
    vault.mode = 'slow';
    assert.deepEqual(await failureOf(provider.get('secret/app/db#password')), { reason: 'the vault did not answer within the timeout (300ms)', outage: true });
  } finally {
    vault.mode = 'ok';
    provider.close();
    roomy.close();
  }
});

test('past the rate limiter a read that could not go within the timeout is refused without asking the vault', { skip }, async () => {
  const provider = providerFor({ rate_limiter: { limit: 0.1, burst: 1 }, timeout: '5s' });
  try {
    assert.equal(await provider.get('secret/app/db#password'), 'v2-value');
    const before = vault.requests.length;
    assert.deepEqual(await failureOf(provider.get('secret/app/db#password')), {
      reason: 'rate limit exceeded (rate_limiter limit 0.1/s, burst 1)',
      outage: false,
    });
    assert.equal(vault.requests.length, before);
  } finally {
    provider.close();
  }
});
