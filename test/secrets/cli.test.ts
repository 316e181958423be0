// `create -f` and `dump` for secrets/v1 resources: which resources are, where each is PUT, and where lists are read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretsResource, secretsDumpUrl, secretsPut } from '../../src/secrets/cli.js';

const BASE = '/api/enterprise/secrets/v1';

test('secrets/v1 resources are known by api_version or by a type only secrets/v1 has', () => {
  assert.equal(isSecretsResource({ api_version: 'secrets/v1', type: 'Anything' }), true);
  for (const type of ['Env', 'ExternalProvider', 'VaultProvider', 'Secret']) assert.equal(isSecretsResource({ type }), true, type);
  assert.equal(isSecretsResource({ api_version: 'core/v2', type: 'CheckConfig' }), false);
});

test('providers are PUT cluster-wide; Secrets in their namespace, the default one when none is given', () => {
  const provider = { type: 'VaultProvider', api_version: 'secrets/v1', metadata: { name: 'my vault' }, spec: {} };
  assert.deepEqual(secretsPut(provider, 'default'), { url: `${BASE}/providers/my%20vault`, body: provider, namespace: '' });
  const secret = { type: 'Secret', api_version: 'secrets/v1', metadata: { name: 'token' }, spec: { id: 'X', provider: 'env' } };
  assert.deepEqual(secretsPut(secret, 'ops/eu'), {
    url: `${BASE}/namespaces/ops%2Feu/secrets/token`,
    body: { ...secret, metadata: { name: 'token', namespace: 'ops/eu' } },
    namespace: 'ops/eu',
  });
  assert.deepEqual(secret.metadata, { name: 'token' }, 'the resource read is left alone');
  const placed = { ...secret, metadata: { name: 'token', namespace: 'dev' } };
  assert.equal((secretsPut(placed, 'default') as { namespace: string }).namespace, 'dev');
});

test('a resource that cannot be sent says why', () => {
  assert.deepEqual(secretsPut({ type: 'Secret', spec: {} }, 'd'), { error: 'api_version is required and must be secrets/v1' });
  assert.deepEqual(secretsPut({ api_version: 'secrets/v1', spec: {} }, 'd'), { error: 'type is required' });
  assert.deepEqual(secretsPut({ api_version: 'secrets/v1', type: 'Secret', spec: null }, 'd'), { error: 'no spec provided' });
  assert.deepEqual(secretsPut({ api_version: 'secrets/v1', type: 'Aws', spec: {} }, 'd'), { error: 'unknown type secrets/v1.Aws' });
});

test('dump names: providers by any of their spellings, secrets per namespace, anything else not ours', () => {
  for (const want of ['providers', 'secrets/v1.Provider', 'secrets/v1.Env', 'secrets/v1.ExternalProvider', 'secrets/v1.VaultProvider'])
    assert.equal(secretsDumpUrl(want, 'default'), `${BASE}/providers`, want);
  assert.equal(secretsDumpUrl('secrets', 'a b'), `${BASE}/namespaces/a%20b/secrets`);
  assert.equal(secretsDumpUrl('secrets/v1.Secret', 'default'), `${BASE}/namespaces/default/secrets`);
  assert.equal(secretsDumpUrl('checks', 'default'), null);
});
