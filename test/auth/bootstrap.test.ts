// The first start's users on a real SQLite store: the admin, and the agent user with its seeded role and binding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureAdmin, ensureAgentUser, AGENT_GROUP, AGENT_ROLE } from '../../src/auth/bootstrap.js';
import { verifyPassword } from '../../src/auth/passwords.js';
import { sqliteStore } from '../helpers/sqlite-store.js';

/** A deliver function that keeps what it was handed. */
function recorder() {
  const delivered: [string, string][] = [];
  return { delivered, deliver: (user: string, password: string) => void delivered.push([user, password]) };
}

test('the admin gets the password from the environment, in group cluster-admins, and nothing is delivered', async (t) => {
  const v2 = sqliteStore(t).resources;
  const { delivered, deliver } = recorder();
  await ensureAdmin(v2, { CHECKBRIDGE_ADMIN_PASSWORD: 'from-the-env-1' }, deliver);
  const admin = v2.getUser('admin')!;
  assert.deepEqual(admin.groups, ['cluster-admins']);
  assert.equal(await verifyPassword('from-the-env-1', admin.password_hash), true);
  assert.deepEqual(delivered, []);
});

test('without one (or with an empty one), a generated password is delivered once and signs in', async (t) => {
  const v2 = sqliteStore(t).resources;
  const { delivered, deliver } = recorder();
  await ensureAdmin(v2, { CHECKBRIDGE_ADMIN_PASSWORD: '' }, deliver);
  assert.equal(delivered.length, 1);
  const [user, password] = delivered[0]!;
  assert.equal(user, 'admin');
  assert.match(password, /^[A-Za-z0-9_-]{24}$/);
  assert.equal(await verifyPassword(password, v2.getUser('admin')!.password_hash), true);
});

test('once any user exists the admin is not created again', async (t) => {
  const v2 = sqliteStore(t).resources;
  v2.putUser('someone', { username: 'someone', groups: [] });
  const { delivered, deliver } = recorder();
  await ensureAdmin(v2, {}, deliver);
  assert.equal(v2.getUser('admin'), null);
  assert.deepEqual(delivered, []);
});

test('the agent user is seeded with its role and binding, its password delivered when none is given', async (t) => {
  const v2 = sqliteStore(t).resources;
  const { delivered, deliver } = recorder();
  await ensureAgentUser(v2, {}, deliver);
  assert.deepEqual(v2.getResource('ClusterRole', '', AGENT_ROLE), {
    rules: [{ verbs: ['*'], resources: ['events'], resource_names: null }],
    metadata: { name: AGENT_ROLE },
  });
  assert.deepEqual(v2.getResource('ClusterRoleBinding', '', AGENT_ROLE), {
    subjects: [{ type: 'Group', name: AGENT_GROUP }],
    role_ref: { type: 'ClusterRole', name: AGENT_ROLE },
    metadata: { name: AGENT_ROLE },
  });
  assert.deepEqual(v2.getUser('agent')!.groups, [AGENT_GROUP]);
  assert.equal(delivered.length, 1);
  assert.equal(await verifyPassword(delivered[0]![1], v2.getUser('agent')!.password_hash), true);
});

test('a second start keeps the agent user, its password and an edited role as they are', async (t) => {
  const v2 = sqliteStore(t).resources;
  const { delivered, deliver } = recorder();
  await ensureAgentUser(v2, { CHECKBRIDGE_AGENT_PASSWORD: 'agent-secret-1' }, deliver);
  assert.deepEqual(delivered, []);
  const hash = v2.getUser('agent')!.password_hash;
  assert.equal(await verifyPassword('agent-secret-1', hash), true);
  v2.putResource('ClusterRole', '', AGENT_ROLE, { rules: [{ verbs: ['create'], resources: ['events'] }], metadata: { name: AGENT_ROLE } });
  await ensureAgentUser(v2, { CHECKBRIDGE_AGENT_PASSWORD: 'another-one-2' }, deliver);
  assert.equal(v2.getUser('agent')!.password_hash, hash);
  assert.deepEqual(v2.getResource('ClusterRole', '', AGENT_ROLE)!.rules, [{ verbs: ['create'], resources: ['events'] }]);
  assert.deepEqual(delivered, []);
});
