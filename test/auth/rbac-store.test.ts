// The RBAC store: the seeded cluster roles, bindings as the decision reads them, and a role's generations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RBAC_TYPE, authorize, bindingWritten, rbacView, roleDeleted, roleWritten, seedRbac } from '../../src/auth/index.js';
import { StateStore } from '../../src/store/index.js';
import { makeTree, removeTree } from '../helpers/tree.js';

function openStore(t: { after(fn: () => void): void }) {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  return store.resources;
}

test('seeded once: cluster-admins may do anything; an unbound user nothing', (t) => {
  const v2 = openStore(t);
  seedRbac(v2);
  seedRbac(v2);
  const view = rbacView(v2);
  assert.equal(authorize(view, 'root', ['cluster-admins'], 'create', 'events', 'default', null).allowed, true);
  assert.equal(authorize(view, 'nobody', [], 'create', 'events', 'default', null).allowed, false);
  assert.equal(view.clusterRoleBindings().length, 1);
});

test('a binding applies to its role as written; once the role is deleted and created again, no longer', (t) => {
  const v2 = openStore(t);
  const role = { rules: [{ verbs: ['create'], resources: ['events'], resource_names: null }], metadata: { name: 'writer' } };
  v2.putResource(RBAC_TYPE.role, 'ops', 'writer', role);
  roleWritten(v2, 'Role', 'ops', 'writer', true);
  v2.putResource(RBAC_TYPE.roleBinding, 'ops', 'agents', {
    role_ref: { type: 'Role', name: 'writer' },
    subjects: [{ type: 'User', name: 'ann' }],
    metadata: { name: 'agents' },
  });
  bindingWritten(v2, 'ops', 'agents');
  assert.equal(authorize(rbacView(v2), 'ann', [], 'create', 'events', 'ops', null).allowed, true);
  roleDeleted(v2, 'Role', 'ops', 'writer');
  v2.deleteResource(RBAC_TYPE.role, 'ops', 'writer');
  v2.putResource(RBAC_TYPE.role, 'ops', 'writer', role);
  roleWritten(v2, 'Role', 'ops', 'writer', true);
  assert.equal(authorize(rbacView(v2), 'ann', [], 'create', 'events', 'ops', null).allowed, false, 'the old binding does not revive');
});
