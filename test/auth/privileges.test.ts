// "Nobody grants what they do not hold" on real RBAC resources in SQLite: cluster admins, group membership, new users, other users' secrets.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { heldUserProblem, isClusterAdmin, membershipProblem, otherUserProblem, type GrantView } from '../../src/auth/privileges.js';
import { RBAC_TYPE, rbacView, seedRbac } from '../../src/auth/rbac-store.js';
import { makeTree, removeTree } from '../helpers/tree.js';

/**
 * The seeded roles, and: group ops is `admin` everywhere; group roots is cluster-admin; group future is bound to a role
 * not yet written; in namespace team, user dave is `admin`, group team-editors is `edit`, user newbie (not yet a user) is `admin`.
 */
function viewOf(t: TestContext): GrantView {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  const v2 = store.resources;
  seedRbac(v2);
  const clusterBinding = (name: string, subject: Record<string, string>, role: string) =>
    v2.putResource(RBAC_TYPE.clusterRoleBinding, '', name, { metadata: { name }, subjects: [subject], role_ref: { type: 'ClusterRole', name: role } });
  const binding = (name: string, subject: Record<string, string>, role: string) =>
    v2.putResource(RBAC_TYPE.roleBinding, 'team', name, {
      metadata: { name, namespace: 'team' },
      subjects: [subject],
      role_ref: { type: 'ClusterRole', name: role },
    });
  clusterBinding('ops-admins', { type: 'Group', name: 'ops' }, 'admin');
  clusterBinding('roots', { type: 'Group', name: 'roots' }, 'cluster-admin');
  clusterBinding('future', { type: 'Group', name: 'future' }, 'not-written-yet');
  binding('dave-admin', { type: 'User', name: 'dave' }, 'admin');
  binding('editors', { type: 'Group', name: 'team-editors' }, 'edit');
  binding('newbie-admin', { type: 'User', name: 'newbie' }, 'admin');
  return { rbac: rbacView(v2), bindingNamespaces: v2.namespacesWith(RBAC_TYPE.roleBinding) };
}

const admin = { username: 'admin', groups: ['cluster-admins'] };
const carol = { username: 'carol', groups: ['ops'] };
const dave = { username: 'dave', groups: [] };
const erin = { username: 'erin', groups: ['team-editors'] };

test('only who holds every verb on every resource cluster-wide is a cluster admin', (t) => {
  const { rbac } = viewOf(t);
  assert.equal(isClusterAdmin(rbac, admin), true);
  assert.equal(isClusterAdmin(rbac, { username: 'x', groups: ['roots'] }), true, 'any binding to cluster-admin');
  assert.equal(isClusterAdmin(rbac, carol), false, 'admin of every namespace is not cluster admin');
  assert.equal(isClusterAdmin(rbac, dave), false);
});

test('a cluster admin may add anyone to any group', (t) => {
  const view = viewOf(t);
  assert.equal(membershipProblem(view, admin, 'zed', ['roots', 'ops', 'future'], true), null);
});

test('adding to a group is allowed when the actor holds what its bindings grant, where they grant it', (t) => {
  const view = viewOf(t);
  assert.equal(membershipProblem(view, carol, 'zed', ['team-editors'], false), null, 'admin everywhere holds edit in team');
  assert.equal(membershipProblem(view, dave, 'zed', ['team-editors'], false), null, 'admin in team holds edit in team');
  assert.equal(membershipProblem(view, erin, 'zed', ['nobody-binds-this'], false), null, 'a group no binding names grants nothing');
});

test('adding to a group whose bindings grant more than the actor holds is refused, naming the binding and what is missing', (t) => {
  const view = viewOf(t);
  const problem = membershipProblem(view, dave, 'zed', ['ops'], false);
  assert.match(
    problem ?? '',
    /^unauthorized to perform action: user "dave" may not add "zed" to group "ops": binding "ops-admins" grants .* cluster-wide, which they do not hold themselves$/,
  );
  assert.match(membershipProblem(view, erin, 'zed', ['team-editors', 'ops'], false) ?? '', /group "ops"/);
  assert.match(membershipProblem(view, carol, 'zed', ['roots'], false) ?? '', /binding "roots"/);
});

test('a binding to a role not yet written counts as granting everything', (t) => {
  const view = viewOf(t);
  assert.match(membershipProblem(view, carol, 'zed', ['future'], false) ?? '', /binding "future" grants \* on \* cluster-wide/);
});

test("creating a user checks the bindings already naming that user; an existing user's are not", (t) => {
  const view = viewOf(t);
  assert.equal(membershipProblem(view, dave, 'newbie', [], true), null, 'dave is admin of team too');
  const problem = membershipProblem(view, erin, 'newbie', [], true);
  assert.match(problem ?? '', /may not create user "newbie": binding "team\/newbie-admin" grants .* in namespace "team"/);
  assert.equal(membershipProblem(view, erin, 'newbie', [], false), null);
});

test("only a cluster admin acts on another user's password or API keys; anyone on their own", (t) => {
  const { rbac } = viewOf(t);
  assert.equal(otherUserProblem(rbac, carol, 'carol', 'reset the password of'), null);
  assert.equal(otherUserProblem(rbac, admin, 'carol', 'create an API key for'), null);
  assert.equal(
    otherUserProblem(rbac, carol, 'dave', 'create an API key for'),
    'unauthorized to perform action: user "carol" may not create an API key for user "dave": only cluster admins act for another user',
  );
});

test('a user holding nothing the actor lacks may be changed; one holding more only by a cluster admin', (t) => {
  const view = viewOf(t);
  assert.equal(heldUserProblem(view, carol, 'dave', [], 'disable'), null, 'carol holds what dave holds');
  assert.equal(heldUserProblem(view, dave, 'erin', ['team-editors'], 'disable'), null);
  assert.equal(heldUserProblem(view, dave, 'nobody', [], 'disable'), null);
  const problem = heldUserProblem(view, dave, 'carol', ['ops'], 'disable');
  assert.match(
    problem ?? '',
    /^unauthorized to perform action: user "dave" may not disable user "carol": they hold .* \(binding "ops-admins"\), which "dave" does not; only cluster admins may$/,
  );
  assert.equal(heldUserProblem(view, admin, 'carol', ['ops'], 'disable'), null);
  assert.equal(heldUserProblem(view, dave, 'dave', [], 'disable'), null, 'anyone may change themselves');
});

test("a user's own bindings count as well as their groups'", (t) => {
  const view = viewOf(t);
  assert.match(heldUserProblem(view, erin, 'dave', [], 're-enable') ?? '', /binding "team\/dave-admin"/);
});
