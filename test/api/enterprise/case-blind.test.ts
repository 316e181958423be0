// Enterprise bodies' keys are read as Go's encoding/json reads them into Sensu Go's structs: exact, else any case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../../helpers/instance.js';
import { adminToken, call } from '../v2/v2-helpers.js';

test('enterprise routes: keys of any case reach their fields (auth providers, secrets providers, secrets, PostgresConfig); maps keep theirs', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'case-host', address: '127.0.0.1', subscriptions: [] } } });
  const auth = `Bearer ${await adminToken(v2)}`;
  const enterprise = `${v2}/api/enterprise`;

  // The Ansible collection's lowercase `type` for a provider Sensu Go documents as `Type`; nested keys in other cases.
  const ldap = {
    type: 'ldap',
    API_VERSION: 'authentication/v2',
    Metadata: { Name: 'lower' },
    SPEC: { Servers: [{ HOST: '127.0.0.1', Group_Search: { base_dn: 'dc=acme,dc=org' }, user_search: { BASE_DN: 'dc=acme,dc=org' } }], Groups_Prefix: 'ldap' },
  };
  const created = await call(`${enterprise}/authentication/v2/authproviders/lower`, 'PUT', auth, ldap);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const provider = (await call(`${enterprise}/authentication/v2/authproviders/lower`, 'GET', auth)).body;
  assert.equal(provider.type, 'ldap');
  assert.equal(provider.spec.groups_prefix, 'ldap');
  assert.equal(provider.spec.servers[0].host, '127.0.0.1');
  assert.equal(provider.spec.servers[0].user_search.base_dn, 'dc=acme,dc=org');

  const vault = {
    TYPE: 'VaultProvider',
    api_version: 'secrets/v1',
    metadata: { name: 'v' },
    Spec: { Client: { Address: 'https://vault.example.com', Token: 't-1', Version: 'v2' } },
  };
  assert.equal((await call(`${enterprise}/secrets/v1/providers/v`, 'PUT', auth, vault)).status, 201);
  const client = (await call(`${enterprise}/secrets/v1/providers/v`, 'GET', auth)).body.spec.client;
  assert.deepEqual([client.address, client.token, client.version], ['https://vault.example.com', 'REDACTED', 'v2']);

  // Labels are a map: their keys stay as sent.
  const secret = { Type: 'Secret', Api_Version: 'secrets/v1', METADATA: { Name: 's1', Labels: { Region: 'eu' } }, Spec: { ID: 'HOME', Provider: 'env' } };
  assert.equal((await call(`${enterprise}/secrets/v1/namespaces/default/secrets/s1`, 'PUT', auth, secret)).status, 201);
  const stored = (await call(`${enterprise}/secrets/v1/namespaces/default/secrets/s1`, 'GET', auth)).body;
  assert.deepEqual([stored.spec, stored.metadata.labels], [{ id: 'HOME', provider: 'env' }, { Region: 'eu' }]);

  const pg = { Type: 'PostgresConfig', API_Version: 'store/v1', Metadata: { Name: 'pg' }, Spec: { DSN: 'postgresql://u@127.0.0.1:9/db', Pool_Size: 3 } };
  assert.equal((await call(`${enterprise}/store/v1/provider/pg`, 'PUT', auth, pg)).status, 201);
  const config = (await call(`${enterprise}/store/v1/provider/pg`, 'GET', auth)).body;
  assert.deepEqual([config.spec.dsn, config.spec.pool_size], ['postgresql://u@127.0.0.1:9/db', 3]);

  // A key that is no field in any case is left as sent, and the route names it.
  const unknown = await call(`${enterprise}/store/v1/provider/pg`, 'PUT', auth, { ...pg, Spec: { ...pg.Spec, Colour: 'red' } });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.message, /spec\.Colour is not a PostgresConfig field/);
});
