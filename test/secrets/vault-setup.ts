import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { call } from '../api/v2/v2-helpers.js';
import { removeTree } from '../helpers/tree.js';
import { opensslMissing } from '../servers/openssl-ca.js';
import { startVaultDouble, type VaultDouble, type VaultOptions } from '../servers/vault-double.js';

export const SECRETS = '/api/enterprise/secrets/v1';

/** A vault double with its own throwaway CA, closed after the test; null when the test is skipped for want of openssl (a failure in CI). */
export async function vaultFor(t: TestContext, options: VaultOptions): Promise<VaultDouble | null> {
  const missing = opensslMissing();
  if (missing) {
    if (process.env.CI === 'true') assert.fail(missing);
    t.skip(missing);
    return null;
  }
  const pki = mkdtempSync(join(tmpdir(), 'checkbridge-vault-'));
  const vault = await startVaultDouble(pki, options);
  t.after(async () => {
    await vault.close();
    removeTree(pki);
  });
  return vault;
}

/** An ExternalProvider `name` for `vault` (KV v2, its CA and name trusted); `client` adds to or replaces those client settings. */
export async function putProvider(v2: string, auth: string, vault: VaultDouble, name: string, client: Record<string, unknown> = {}): Promise<void> {
  const body = {
    type: 'ExternalProvider',
    api_version: 'secrets/v1',
    metadata: { name },
    spec: { client: { address: vault.url, token: vault.token, version: 'v2', tls: { ca_cert: vault.ca, cname: vault.serverName }, ...client } },
  };
  const reply = await call(`${v2}${SECRETS}/providers/${name}`, 'PUT', auth, body);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

/** A Secret `name` in the default namespace: `id` read from `provider`. */
export async function putSecret(v2: string, auth: string, name: string, provider: string, id: string): Promise<void> {
  const reply = await call(`${v2}${SECRETS}/namespaces/default/secrets/${name}`, 'PUT', auth, {
    type: 'Secret',
    api_version: 'secrets/v1',
    metadata: { name },
    spec: { provider, id },
  });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}
