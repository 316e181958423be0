// Spellings the directory folds one way and JavaScript another (İ, whose lower case is
// two characters in JavaScript and `i` in the directory) still name the one user the directory found.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, getJson } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { startSlapd, slapdSkipReason, PEOPLE, ldapServerSpec, type Slapd } from '../servers/slapd.js';

const skip = slapdSkipReason();
const PROVIDERS = '/api/enterprise/authentication/v2/authproviders';
const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

let slapd: Slapd;
before(async () => {
  if (!skip) slapd = await startSlapd();
});
after(async () => {
  await slapd?.close();
});

test('LDAP: a disabled user stays disabled under spellings the directory folds differently from JavaScript (ALİCE)', { skip }, async (t) => {
  const root = makeTree({ 'conf.d/client.json': { client: { name: 'directory-names', address: '127.0.0.1', subscriptions: [] } } });
  const { daemon, v2 } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const admin = `Bearer ${await adminToken(v2)}`;
  const provider = {
    Type: 'ldap',
    api_version: 'authentication/v2',
    metadata: { name: 'acme' },
    spec: { username_prefix: 'ldap:', groups_prefix: 'ldap:', servers: [ldapServerSpec(slapd)] },
  };
  assert.equal((await call(`${v2}${PROVIDERS}/acme`, 'PUT', admin, provider)).status, 201);
  const login = (user: string) => getJson(`${v2}/auth`, { headers: basic(user, PEOPLE.alice.password) });
  const directoryUsers = async () =>
    ((await call(`${v2}/api/core/v2/users`, 'GET', admin)).body as { username: string; disabled: boolean }[]).filter((u) => u.username.startsWith('ldap:'));

  const spellings = ['ALİCE', 'alİce', 'ＡＬＩＣＥ'];
  // Each spelling the directory accepts signs in as the one user it holds.
  for (const spelling of spellings) {
    const signed = await login(spelling);
    assert.equal(signed.status, 200, spelling);
    assert.equal((await call(`${v2}/api/core/v2/users/ldap:alice`, 'GET', `Bearer ${signed.body.access_token}`)).status, 200, `${spelling} is ldap:alice`);
  }
  assert.deepEqual(
    (await directoryUsers()).map((u) => u.username),
    ['ldap:alice'],
  );
  assert.equal((await call(`${v2}/api/core/v2/users/ldap:alice`, 'DELETE', admin)).status, 204);
  for (const spelling of spellings) assert.equal((await login(spelling)).status, 401, spelling);
  assert.deepEqual(await directoryUsers(), [{ username: 'ldap:alice', groups: ['ldap:dev'], disabled: true }], 'no fresh account');
});
