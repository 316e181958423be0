// secrets/v1 providers and Secrets: refused with their first problem, stored with defaults, read without the token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalProviderType, providerForRead, providerProblem, secretProblem, withClientDefaults } from '../../src/secrets/model.js';

const vault = (client: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'ExternalProvider',
  api_version: 'secrets/v1',
  metadata: { name: 'vault' },
  spec: { client: { address: 'https://vault:8200', token: 's.token', version: 'v2', ...client } },
  ...extra,
});

test('the Env provider and a complete vault are accepted; VaultProvider is read as ExternalProvider', () => {
  assert.equal(providerProblem({ type: 'Env', api_version: 'secrets/v1', metadata: { name: 'env' }, spec: {} }), null);
  assert.equal(providerProblem(vault({ max_retries: 0, timeout: '20s', tls: { ca_cert: '/ca.pem', client_cert: '/c', client_key: '/k', cname: 'v' } })), null);
  assert.equal(providerProblem(vault({ tls: null, rate_limiter: { limit: 0.5, burst: 1 } })), null);
  assert.equal(canonicalProviderType('VaultProvider'), 'ExternalProvider');
  assert.equal(canonicalProviderType('Env'), 'Env');
});

test('a provider body is refused with its first problem', () => {
  assert.equal(providerProblem({ api_version: 'secrets/v1', spec: {} }), 'type is required');
  assert.equal(providerProblem({ type: 'Env', api_version: 'core/v2', spec: {} }), 'api_version is required and must be secrets/v1');
  assert.equal(providerProblem({ type: 'Env', api_version: 'secrets/v1' }), 'spec is required');
  assert.equal(
    providerProblem({ type: 'Env', api_version: 'secrets/v1', metadata: { namespace: 'default' }, spec: {} }),
    'secrets providers are cluster-wide: metadata.namespace is not allowed',
  );
  assert.equal(providerProblem({ type: 'Env', api_version: 'secrets/v1', spec: { x: 1 } }), 'the Env provider takes an empty spec');
  assert.equal(providerProblem({ type: 'Aws', api_version: 'secrets/v1', spec: {} }), 'type must be Env or ExternalProvider');
  assert.equal(providerProblem({ ...vault({}), spec: { client: vault({}).spec.client, other: 1 } }), 'unknown field spec.other');
  assert.equal(providerProblem({ ...vault({}), spec: {} }), 'spec.client is required');
});

test('a vault client is refused with its first problem, naming the field', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ extra: 1 }, 'unknown field spec.client.extra'],
    [{ address: '' }, 'spec.client.address is required'],
    [{ address: 'not a url' }, 'spec.client.address must be a URL'],
    [{ address: 'http://vault:8200' }, 'spec.client.address: the vault works only over TLS; use an https:// address'],
    [{ address: 'ftp://vault' }, 'spec.client.address must be an https:// URL'],
    [{ token: '' }, 'spec.client.token is required'],
    [{ version: 'v3' }, 'spec.client.version must be v1 or v2'],
    [{ max_retries: -1 }, 'spec.client.max_retries must be a non-negative integer'],
    [{ timeout: 'soon' }, 'spec.client.timeout must be a duration such as 20s'],
    [{ timeout: '0s' }, 'spec.client.timeout must be a duration such as 20s'],
    [{ tls: 'yes' }, 'spec.client.tls must be a map'],
    [{ tls: { insecure: true } }, 'unknown field spec.client.tls.insecure'],
    [{ tls: { ca_cert: 1 } }, 'spec.client.tls.ca_cert must be a string'],
    [{ tls: { client_cert: '/c' } }, 'spec.client.tls.client_cert and client_key go together'],
    [{ rate_limiter: [] }, 'spec.client.rate_limiter must be a map'],
    [{ rate_limiter: { rate: 1 } }, 'unknown field spec.client.rate_limiter.rate'],
    [{ rate_limiter: { limit: -1 } }, 'spec.client.rate_limiter.limit must be a non-negative number (requests per second)'],
    [{ rate_limiter: { burst: 0 } }, 'spec.client.rate_limiter.burst must be a positive integer'],
  ];
  for (const [client, problem] of cases) assert.equal(providerProblem(vault(client)), problem, JSON.stringify(client));
});

test('a Secret needs its type, api_version, id and provider', () => {
  const secret = { type: 'Secret', api_version: 'secrets/v1', metadata: { name: 's' }, spec: { id: 'API_TOKEN', provider: 'env' } };
  assert.equal(secretProblem(secret), null);
  assert.equal(secretProblem({ ...secret, type: 'Env' }), 'type is required and must be Secret');
  assert.equal(secretProblem({ ...secret, api_version: 'core/v2' }), 'api_version is required and must be secrets/v1');
  assert.equal(secretProblem({ ...secret, spec: null }), 'spec is required');
  assert.equal(secretProblem({ ...secret, spec: { provider: 'env' } }), 'spec.id is required');
  assert.equal(secretProblem({ ...secret, spec: { id: 'x', provider: '' } }), 'spec.provider is required');
});

test('stored clients get their defaults written in; reads never show the token', () => {
  assert.deepEqual(withClientDefaults({ address: 'https://v', token: 't', version: 'v1' }), {
    address: 'https://v',
    token: 't',
    version: 'v1',
    max_retries: 2,
    timeout: '60s',
  });
  assert.equal(withClientDefaults({ max_retries: 0, timeout: '5s' }).max_retries, 0);
  const stored = vault({});
  const read = providerForRead(stored) as { spec: { client: Record<string, unknown> } };
  assert.equal(read.spec.client.token, 'REDACTED');
  assert.equal(read.spec.client.tls, null, 'tls present, null without one');
  assert.equal(read.spec.client.address, 'https://vault:8200');
  assert.equal(stored.spec.client.token, 's.token', 'the stored provider is left alone');
  const withTls = providerForRead(vault({ tls: { ca_cert: '/ca' } })) as { spec: { client: Record<string, unknown> } };
  assert.deepEqual(withTls.spec.client.tls, { ca_cert: '/ca' });
  const env = { type: 'Env', api_version: 'secrets/v1', spec: {} };
  assert.equal(providerForRead(env), env);
});
