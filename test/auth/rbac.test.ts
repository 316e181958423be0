// Whether a caller holds what a role grants is asked once per distinct permission. Before, a namespace admin's Role
// repeating `get` and `checks` 30,000 times each (a 450 KB body) asked it 900 million times, each a walk of the bindings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILT_IN_CLUSTER_ROLES, escalationProblem, type Binding, type RbacView } from '../../src/auth/rbac.js';

/** A namespace admin's view (the built-in `admin` bound in `team-a`), counting how often the bindings are read. */
function adminView(): { view: RbacView; reads: () => number } {
  let reads = 0;
  const binding: Binding = { role_ref: { type: 'ClusterRole', name: 'admin' }, subjects: [{ type: 'User', name: 'ann' }] } as Binding;
  const view: RbacView = {
    clusterRole: (name) => (BUILT_IN_CLUSTER_ROLES.has(name) ? { rules: BUILT_IN_CLUSTER_ROLES.get(name)! } : null),
    role: () => null,
    clusterRoleBindings: () => (reads++, []),
    roleBindings: (namespace) => (reads++, namespace === 'team-a' ? [binding] : []),
  };
  return { view, reads: () => reads };
}

test('a rule repeating its verbs, resources and names costs one check per distinct permission', () => {
  const { view, reads } = adminView();
  const repeated = (value: string) => Array<string>(100).fill(value);
  const rules = [
    { verbs: [...repeated('get'), 'list'], resources: repeated('checks'), resource_names: null },
    { verbs: repeated('update'), resources: repeated('hooks'), resource_names: repeated('h1') },
  ];
  assert.equal(escalationProblem(view, 'ann', [], rules, 'team-a'), null);
  // get and list on checks, update on hooks (held for every name): 3 permissions, each a read of both binding lists.
  assert.ok(reads() <= 6, `${reads()} reads of the bindings`);
  // What is not held is still found, and named.
  const wider = [{ verbs: repeated('get'), resources: [...repeated('checks'), 'users'], resource_names: null }];
  assert.match(escalationProblem(view, 'ann', [], wider, 'team-a') ?? '', /may not grant get on users in namespace "team-a"/);
});
