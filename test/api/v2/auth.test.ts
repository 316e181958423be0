import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import { instanceFor, getJson, adminBasic } from '../../helpers/instance.js';
import { call } from './v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

test('v2 authentication: tokens, refresh, API keys, roles, and a matrix of every route against every kind of credential', async (t) => {
  const { v2, root } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'auth-host', address: '127.0.0.1', subscriptions: [] } } });

  // Health needs nothing and reports the embedded store as the member.
  const health = await getJson(`${v2}/health`);
  assert.equal(health.status, 200);
  assert.equal(health.body.Alarms, null);
  assert.deepEqual(Object.keys(health.body.ClusterHealth[0]), ['MemberID', 'MemberIDHex', 'Name', 'Err', 'Healthy']);
  assert.equal(health.body.ClusterHealth[0].Healthy, true);
  assert.equal('PostgresHealth' in health.body, false);

  // /auth with basic credentials; bad ones and none are 401.
  assert.equal((await getJson(`${v2}/auth`)).status, 401);
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('admin', 'wrong') })).status, 401);
  const tokens = (await getJson(`${v2}/auth`, { headers: adminBasic })).body;
  assert.deepEqual(Object.keys(tokens).sort(), ['access_token', 'expires_at', 'refresh_token']);
  assert.ok(tokens.expires_at > Date.now() / 1000 && tokens.expires_at <= Date.now() / 1000 + 301);
  assert.equal((await getJson(`${v2}/auth/test`, { headers: adminBasic })).status, 200);
  assert.equal((await getJson(`${v2}/auth/test`, { headers: basic('admin', 'nope') })).status, 401);
  const bearer = `Bearer ${tokens.access_token}`;

  // Refresh gives a new pair; the old refresh token cannot be used again, and reuse ends the session.
  const refreshed = await call(`${v2}/auth/token`, 'POST', bearer, { refresh_token: tokens.refresh_token });
  assert.equal(refreshed.status, 200);
  const bearer2 = `Bearer ${refreshed.body.access_token}`;
  assert.equal((await call(`${v2}/api/core/v2/events`, 'GET', bearer2)).status, 200);
  assert.equal((await call(`${v2}/auth/token`, 'POST', bearer2, { refresh_token: tokens.refresh_token })).status, 400, 'refresh token reuse');
  assert.equal((await call(`${v2}/api/core/v2/events`, 'GET', bearer2)).status, 401, 'the session ended with the reuse');
  const token = `Bearer ${(await getJson(`${v2}/auth`, { headers: adminBasic })).body.access_token}`;

  // Users and keys: a plain user, an admin-granted key for them, a key for the admin.
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', token, { username: 'alice', password: 'alice-pass-1', groups: ['dev'] })).status, 201);
  // A user of an external provider has no local password: none is set, and none is needed.
  assert.match(
    (await call(`${v2}/api/core/v2/users`, 'POST', token, { username: 'ldap-bob', password: 'irrelevant-1', provider: 'ldap' })).body.message,
    /has no local password/,
  );
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', token, { username: 'ldap-bob', provider: 'ldap' })).status, 201);
  const grant = await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'alice' });
  assert.equal(grant.status, 201);
  const location = grant.headers.get('location')!;
  assert.match(location, /^\/api\/core\/v2\/apikeys\/[0-9a-f-]{36}$/);
  const aliceKey = `Key ${location.split('/').pop()}`;
  assert.equal(
    (
      await call(`${v2}/api/core/v2/namespaces/default/rolebindings/dev-edit`, 'PUT', token, {
        subjects: [{ type: 'Group', name: 'dev' }],
        role_ref: { type: 'ClusterRole', name: 'edit' },
      })
    ).status,
    201,
  );
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'ghost' })).body.message, 'user does not exist');
  assert.match((await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'ldap-bob' })).body.message, /external authentication providers/);
  const adminKey = `Key ${(await call(`${v2}/api/core/v2/apikeys`, 'POST', token, { username: 'admin' })).headers.get('location')!.split('/').pop()}`;
  const info = await call(`${v2}${location}`, 'GET', adminKey);
  assert.equal(info.body.username, 'alice');
  assert.equal(info.body.metadata.created_by, 'admin');
  const listed = (await call(`${v2}/api/core/v2/apikeys`, 'GET', adminKey)).body as any[];
  assert.equal(listed.length, 2);
  // Listed by an ID of their own, never by the key: the listed ID reads and revokes the key.
  const aliceId = listed.find((k) => k.username === 'alice').metadata.name as string;
  assert.match(aliceId, /^[0-9a-f-]{36}$/);
  assert.ok(
    listed.every((k) => k.metadata.name !== location.split('/').pop() && !adminKey.includes(k.metadata.name)),
    'lists never show a key',
  );
  assert.equal((await call(`${v2}/api/core/v2/apikeys/${aliceId}`, 'GET', adminKey)).body.username, 'alice');

  // Only hashes are stored: no column holds a key.
  const db = new Database(join(root, 'state', 'checkbridge.db'), { readonly: true });
  const rows = db.prepare('SELECT key_hash, hint FROM api_keys').all() as { key_hash: string; hint: string }[];
  assert.ok(rows.every((row) => /^[0-9a-f]{64}$/.test(row.key_hash) && !location.includes(row.hint) && !adminKey.includes(row.hint)));

  // Alice: namespaced resources yes, key management no (403); her key survives a password change.
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', aliceKey)).status, 200);
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'GET', aliceKey)).status, 403);
  assert.deepEqual((await call(`${v2}/api/core/v2/apikeys`, 'GET', aliceKey)).body, {
    message: 'unauthorized to perform action: user "alice" may not list apikeys (cluster-wide)',
    code: 4,
  });
  assert.equal((await call(`${v2}/api/core/v2/users/alice/password`, 'PUT', aliceKey, { password: 'alice-pass-1', new_password: 'alice-pass-2' })).status, 201);
  assert.equal((await getJson(`${v2}/auth/test`, { headers: basic('alice', 'alice-pass-2') })).status, 200);
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', aliceKey)).status, 200, 'the key outlives the password');

  // An expired token, signed with the real key: refused.
  const secret = (db.prepare("SELECT value FROM secrets WHERE name = 'jwt-hs256'").get() as { value: string }).value;
  db.close();
  const now = Math.floor(Date.now() / 1000);
  const expired = `Bearer ${await new SignJWT({ groups: ['cluster-admins'], session_id: 'x', kind: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('admin')
    .setIssuedAt(now - 600)
    .setExpirationTime(now - 300)
    .sign(Buffer.from(secret, 'base64'))}`;

  // Revoke alice's key: refused on the very next request.
  const revoked = aliceKey;
  assert.equal((await call(`${v2}${location}`, 'DELETE', adminKey)).status, 204);
  assert.equal((await call(`${v2}${location}`, 'DELETE', adminKey)).status, 404);

  const routes: [string, string, unknown?][] = [
    ['GET', '/api/core/v2/events'],
    ['GET', '/api/core/v2/namespaces/default/events'],
    ['GET', '/api/core/v2/namespaces/default/events/auth-host'],
    ['GET', '/api/core/v2/namespaces/default/events/auth-host/none'],
    [
      'PUT',
      '/api/core/v2/namespaces/default/events/p1/c1',
      { entity: { entity_class: 'proxy', metadata: { name: 'p1' } }, check: { metadata: { name: 'c1' }, interval: 5 } },
    ],
    [
      'POST',
      '/api/core/v2/namespaces/default/events',
      { entity: { entity_class: 'proxy', metadata: { name: 'p2' } }, check: { metadata: { name: 'c2' }, interval: 5 } },
    ],
    ['DELETE', '/api/core/v2/namespaces/default/events/p1/c1'],
    ['GET', '/api/core/v2/namespaces/default/handlers'],
    ['PUT', '/api/core/v2/namespaces/default/handlers/h1', { type: 'pipe', command: 'true' }],
    ['GET', '/api/core/v2/namespaces/default/pipelines'],
    ['GET', '/api/core/v2/apikeys'],
    ['POST', '/api/core/v2/apikeys', { username: 'alice' }],
    ['GET', '/api/core/v2/users/admin'],
  ];
  const credentials: [string, string | null, boolean][] = [
    ['none', null, false],
    ['bad token', 'Bearer not.a.jwt', false],
    ['expired token', expired, false],
    ['revoked key', revoked, false],
    ['unknown scheme', 'Basic ' + Buffer.from('admin:x').toString('base64'), false],
    ['valid key', adminKey, true],
    ['valid token', token, true],
  ];
  for (const [method, path, body] of routes) {
    for (const [label, authorization, allowed] of credentials) {
      const reply = await call(`${v2}${path}`, method, authorization, body);
      if (allowed) assert.ok(reply.status < 400 || reply.status === 404, `${label} ${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
      else {
        assert.equal(reply.status, 401, `${label} ${method} ${path}`);
        assert.equal(reply.body.code, 5);
      }
    }
  }
  assert.equal((await getJson(`${v2}/health`)).status, 200, 'health needs no credentials');
});
