// Authentication providers kept in a real SQLite store, cluster-wide, secrets included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getProvider, putProvider, deleteProvider, listProviders } from '../../../src/auth/providers/store.js';
import type { Provider } from '../../../src/auth/providers/provider-spec.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';

const oidc = (name: string): Provider => ({
  type: 'oidc',
  api_version: 'authentication/v2',
  metadata: { name },
  spec: {
    additional_scopes: [],
    client_id: 'id',
    client_secret: 'kept-secret',
    disable_offline_access: false,
    groups_claim: '',
    groups_prefix: '',
    redirect_uri: '',
    server: 'https://idp.example',
    username_claim: 'email',
    username_prefix: '',
  },
});

test('a provider is kept by name with its secret, listed in name order, and deleted', (t) => {
  const v2 = sqliteStore(t).resources;
  assert.equal(getProvider(v2, 'b'), null);
  putProvider(v2, oidc('b'));
  putProvider(v2, oidc('a'));
  assert.deepEqual(getProvider(v2, 'b'), oidc('b'));
  assert.deepEqual(
    listProviders(v2).map((p) => p.metadata.name),
    ['a', 'b'],
  );
  assert.equal(
    (v2.getResource('AuthProvider', '', 'a')?.spec as { client_secret?: string } | undefined)?.client_secret,
    'kept-secret',
    'cluster-wide, under no namespace',
  );
  assert.equal(deleteProvider(v2, 'b'), true);
  assert.equal(deleteProvider(v2, 'b'), false);
  assert.deepEqual(
    listProviders(v2).map((p) => p.metadata.name),
    ['a'],
  );
});
