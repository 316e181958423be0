import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { parseAllDocuments } from 'yaml';
import { instanceFor, getJson, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { runCli } from '../../helpers/cli.js';
import { call, adminToken } from '../v2/v2-helpers.js';

const BASE = '/api/enterprise/authentication/v2/authproviders';
const SECRET = 'bind-secret-Zq81';
const OIDC_SECRET = 'oidc-client-secret-Hw33';

const ldap = (name: string, extra: Record<string, unknown> = {}) => ({
  Type: 'ldap',
  api_version: 'authentication/v2',
  metadata: { name },
  spec: {
    servers: [
      {
        host: '127.0.0.1',
        binding: { user_dn: 'cn=binder,dc=acme,dc=org', password: SECRET },
        group_search: { base_dn: 'dc=acme,dc=org' },
        user_search: { base_dn: 'dc=acme,dc=org' },
        ...extra,
      },
    ],
  },
});
const oidc = (name: string) => ({
  Type: 'OIDC',
  api_version: 'authentication/v2',
  metadata: { name },
  spec: { server: 'https://idp.example', client_id: 'checkbridge', client_secret: OIDC_SECRET, username_claim: 'email', additional_scopes: ['groups'] },
});

test('auth providers: every status code of the providers API, capital Type, every LDAP field present, secrets never shown nor logged, create -f and dump', async (t) => {
  const { v2, root, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'ap-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;

  // Credentials first (401), then RBAC: a user who may edit every namespace still may not touch providers (403).
  assert.equal((await call(`${v2}${BASE}`, 'GET', null)).status, 401);
  assert.equal((await call(`${v2}${BASE}/x`, 'PUT', null, ldap('x'))).status, 401);
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'ed', password: 'ed-pass-12', groups: ['eds'] })).status, 201);
  assert.equal(
    (
      await call(`${v2}/api/core/v2/clusterrolebindings/eds`, 'PUT', admin, {
        subjects: [{ type: 'Group', name: 'eds' }],
        role_ref: { type: 'ClusterRole', name: 'edit' },
      })
    ).status,
    201,
  );
  const ed = `Bearer ${(await getJson(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from('ed:ed-pass-12').toString('base64') } })).body.access_token}`;
  for (const [method, path, body] of [
    ['GET', BASE],
    ['GET', `${BASE}/x`],
    ['PUT', `${BASE}/x`, ldap('x')],
    ['DELETE', `${BASE}/x`],
  ] as [string, string, unknown?][]) {
    const reply = await call(`${v2}${path}`, method, ed, body);
    assert.equal(reply.status, 403, `${method} ${path}`);
    assert.equal(reply.body.code, 4);
  }

  // 400 for a malformed provider, the message naming the field.
  const malformed: [unknown, RegExp][] = [
    [{ ...ldap('p'), Type: undefined }, /Type is required/],
    [{ ...ldap('p'), Type: 'kerberos' }, /Type must be one of ldap, ad, oidc/],
    [{ ...ldap('p'), api_version: 'core/v2' }, /api_version must be authentication\/v2/],
    [{ ...ldap('p'), metadata: {} }, /metadata\.name is required/],
    [{ ...ldap('other') }, /does not match the name of the URI/],
    [{ ...ldap('p'), spec: undefined }, /spec is required/],
    [{ ...ldap('p'), spec: { servers: [] } }, /spec\.servers must be a non-empty array/],
    [ldap('p', { host: '' }), /spec\.servers\[0\]\.host is required/],
    [ldap('p', { user_search: {} }), /spec\.servers\[0\]\.user_search\.base_dn is required/],
    [ldap('p', { group_search: { base_dn: 7 } }), /spec\.servers\[0\]\.group_search\.base_dn must be a string/],
    [ldap('p', { security: 'ssl' }), /spec\.servers\[0\]\.security must be one of tls, starttls, insecure/],
    [ldap('p', { port: 70000 }), /spec\.servers\[0\]\.port must be an integer/],
    [ldap('p', { insecure: 'yes' }), /spec\.servers\[0\]\.insecure must be a boolean/],
    [{ ...oidc('p'), spec: { ...oidc('p').spec, server: 'idp.example' } }, /spec\.server must be an http or https URL/],
    [{ ...oidc('p'), spec: { ...oidc('p').spec, client_id: undefined } }, /spec\.client_id is required/],
    [JSON.stringify('not an object'), /body must be an object/],
  ];
  for (const [body, message] of malformed) {
    const reply = await call(`${v2}${BASE}/p`, 'PUT', admin, body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.equal(reply.body.code, 1);
    assert.match(reply.body.message, message);
  }
  assert.equal((await call(`${v2}${BASE}/p`, 'GET', admin)).status, 404, 'nothing malformed was stored');

  // 201 on create, 200 on update; a stored LDAP provider has every field, empty strings where unset.
  assert.equal((await call(`${v2}${BASE}/acme`, 'PUT', admin, ldap('acme'))).status, 201);
  assert.equal((await call(`${v2}${BASE}/acme`, 'PUT', admin, ldap('acme', { security: 'starttls' }))).status, 200);
  const stored = await call(`${v2}${BASE}/acme`, 'GET', admin);
  assert.equal(stored.status, 200);
  assert.deepEqual(stored.body, {
    type: 'ldap',
    api_version: 'authentication/v2',
    metadata: { name: 'acme', created_by: 'admin' },
    spec: {
      groups_prefix: '',
      username_prefix: '',
      servers: [
        {
          host: '127.0.0.1',
          port: 389,
          insecure: false,
          security: 'starttls',
          binding: { user_dn: 'cn=binder,dc=acme,dc=org', password: 'REDACTED' },
          client_cert_file: '',
          client_key_file: '',
          trusted_ca_file: '',
          default_upn_domain: '',
          group_search: { base_dn: 'dc=acme,dc=org', attribute: 'member', name_attribute: 'cn', object_class: 'groupOfNames' },
          user_search: { base_dn: 'dc=acme,dc=org', attribute: 'uid', name_attribute: 'cn', object_class: 'person' },
        },
      ],
    },
  });
  assert.equal((await call(`${v2}${BASE}/corp`, 'PUT', admin, { ...ldap('corp'), Type: 'AD' })).status, 201);
  const ad = (await call(`${v2}${BASE}/corp`, 'GET', admin)).body;
  assert.equal(ad.type, 'ad');
  assert.equal(ad.spec.servers[0].port, 636, 'tls by default, on the LDAPS port');
  assert.equal(ad.spec.servers[0].user_search.attribute, 'sAMAccountName');
  assert.equal((await call(`${v2}${BASE}/sso`, 'PUT', admin, oidc('sso'))).status, 201);
  const sso = (await call(`${v2}${BASE}/sso`, 'GET', admin)).body;
  assert.equal(sso.type, 'oidc');
  assert.equal(sso.spec.client_secret, 'REDACTED');
  assert.deepEqual(Object.keys(sso.spec).sort(), [
    'additional_scopes',
    'client_id',
    'client_secret',
    'disable_offline_access',
    'groups_claim',
    'groups_prefix',
    'redirect_uri',
    'server',
    'username_claim',
    'username_prefix',
  ]);

  // Lists: repeatable types in any case, paging.
  const names = async (query: string) => ((await call(`${v2}${BASE}${query}`, 'GET', admin)).body as any[]).map((p) => p.metadata.name);
  assert.deepEqual(await names(''), ['acme', 'corp', 'sso']);
  assert.deepEqual(await names('?types=AD&types=OIDC'), ['corp', 'sso']);
  assert.deepEqual(await names('?types=ldap'), ['acme']);
  const first = await call(`${v2}${BASE}?limit=2`, 'GET', admin);
  assert.equal(first.body.length, 2);
  assert.deepEqual(await names(`?limit=2&continue=${first.headers.get('sensu-continue')}`), ['sso']);

  // A masked secret sent back keeps the stored one; the secret itself is never in a response or a log line.
  assert.equal((await call(`${v2}${BASE}/acme`, 'PUT', admin, stored.body && { ...stored.body, type: undefined, Type: 'ldap' })).status, 200);
  const db = new Database(join(root, 'state', 'checkbridge.db'), { readonly: true });
  const rows = () => JSON.stringify(db.prepare("SELECT data FROM v2_resources WHERE kind = 'AuthProvider'").all());
  assert.ok(rows().includes(SECRET) && rows().includes(OIDC_SECRET), 'the secrets are kept to bind with');
  const everything = JSON.stringify([
    (await call(`${v2}${BASE}`, 'GET', admin)).body,
    ...(await Promise.all(['acme', 'corp', 'sso'].map(async (n) => (await call(`${v2}${BASE}/${n}`, 'GET', admin)).body))),
  ]);
  assert.ok(!everything.includes(SECRET) && !everything.includes(OIDC_SECRET));

  // The command-line client: dump, then create -f of the dump (masked secrets kept), and RBAC kinds.
  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const dumped = runCli(['dump', 'authproviders', '--url', v2], asAdmin);
  assert.equal(dumped.code, 0, dumped.stderr);
  const documents = parseAllDocuments(dumped.stdout).map((d) => d.toJSON());
  assert.deepEqual(
    documents.map((d) => [d.type, d.api_version, d.metadata.name]),
    [
      ['ldap', 'authentication/v2', 'acme'],
      ['ad', 'authentication/v2', 'corp'],
      ['oidc', 'authentication/v2', 'sso'],
    ],
  );
  assert.ok(!dumped.stdout.includes(SECRET));
  writeFileSync(join(root, 'providers.yaml'), dumped.stdout);
  const recreated = runCli(['create', '-f', join(root, 'providers.yaml'), '--url', v2], asAdmin);
  assert.equal(recreated.code, 0, recreated.stderr);
  assert.match(recreated.stdout, /applied 3 of 3 resources/);
  assert.ok(rows().includes(SECRET) && rows().includes(OIDC_SECRET), 'create -f of a dump keeps the secrets');

  writeFileSync(
    join(root, 'rbac.yaml'),
    [
      'type: ClusterRole\napi_version: core/v2\nmetadata:\n  name: readers\nspec:\n  rules:\n    - verbs: [get, list]\n      resources: [checks]\n',
      'type: ClusterRoleBinding\napi_version: core/v2\nmetadata:\n  name: readers\nspec:\n  role_ref: {type: ClusterRole, name: readers}\n  subjects: [{type: Group, name: readers}]\n',
      'type: Role\napi_version: core/v2\nmetadata:\n  name: hooks-only\n  namespace: default\nspec:\n  rules:\n    - verbs: ["*"]\n      resources: [hooks]\n',
      'type: RoleBinding\napi_version: core/v2\nmetadata:\n  name: hooks-only\nspec:\n  role_ref: {type: Role, name: hooks-only}\n  subjects: [{type: User, name: ed}]\n',
    ].join('---\n'),
  );
  const rbac = runCli(['create', '-f', join(root, 'rbac.yaml'), '--url', v2], asAdmin);
  assert.equal(rbac.code, 0, rbac.stderr);
  assert.deepEqual((await call(`${v2}/api/core/v2/namespaces/default/rolebindings/hooks-only`, 'GET', admin)).body.subjects, [{ type: 'User', name: 'ed' }]);
  const roles = runCli(['dump', 'clusterroles,roles,clusterrolebindings,rolebindings', '--url', v2], asAdmin);
  assert.equal(roles.code, 0, roles.stderr);
  const back = parseAllDocuments(roles.stdout).map((d) => d.toJSON());
  assert.deepEqual(
    back.filter((d) => ['readers', 'hooks-only'].includes(d.metadata.name)).map((d) => [d.type, d.metadata.name]),
    [
      ['ClusterRole', 'readers'],
      ['Role', 'hooks-only'],
      ['ClusterRoleBinding', 'readers'],
      ['RoleBinding', 'hooks-only'],
    ],
  );
  assert.deepEqual(back.find((d) => d.type === 'ClusterRole' && d.metadata.name === 'readers').spec.rules, [
    { verbs: ['get', 'list'], resources: ['checks'], resource_names: null },
  ]);

  // 204 then 404 on delete; GET of a deleted or unknown provider is 404.
  assert.equal((await call(`${v2}${BASE}/corp`, 'DELETE', admin)).status, 204);
  assert.equal((await call(`${v2}${BASE}/corp`, 'DELETE', admin)).status, 404);
  assert.equal((await call(`${v2}${BASE}/corp`, 'GET', admin)).status, 404);
  assert.deepEqual(await names(''), ['acme', 'sso']);
  db.close();
  const logs = JSON.stringify(daemon.logs);
  assert.ok(logs.includes('authentication provider created'));
  assert.ok(!logs.includes(SECRET) && !logs.includes(OIDC_SECRET), 'no secret in any log line');
});
