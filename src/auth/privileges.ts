// "Nobody grants what they do not hold", beyond roles and bindings: group membership, other users' passwords and
// API keys for other users. Pure: the RBAC view and the namespaces holding role bindings are handed in.
import { firstUnheld, type Binding, type RbacView, type Rule, type Subject } from './rbac.js';
import type { Json } from '../json.js';

export interface Actor {
  readonly username: string;
  readonly groups: readonly string[];
}

/** What the checks read: the RBAC view, and every namespace that holds RoleBindings. */
export interface GrantView {
  readonly rbac: RbacView;
  readonly bindingNamespaces: readonly string[];
}

// A binding whose role does not exist yet grants whatever that role will be: treated as everything.
const EVERYTHING: readonly Rule[] = [{ verbs: ['*'], resources: ['*'], resource_names: null }];

/** Every verb on every resource cluster-wide (the cluster-admin role, or an equal one). */
export function isClusterAdmin(rbac: RbacView, actor: Actor): boolean {
  return firstUnheld(rbac, actor.username, actor.groups, EVERYTHING, null) === null;
}

interface Grant {
  readonly binding: string;
  readonly rules: readonly Rule[];
  readonly namespace: string | null;
}

const names = (binding: Binding, subject: Subject) =>
  Array.isArray(binding.subjects) && binding.subjects.some((s) => s?.type === subject.type && s.name === subject.name);
const nameOf = (binding: Binding) => String((binding as unknown as Json).metadata?.name ?? binding.role_ref?.name ?? '');

/** What the bindings naming `subject` hand out: each binding's role rules, where the binding applies. */
function grantsTo(view: GrantView, subject: Subject): Grant[] {
  const grants: Grant[] = [];
  for (const binding of view.rbac.clusterRoleBindings()) {
    if (!names(binding, subject)) continue;
    grants.push({ binding: nameOf(binding), rules: view.rbac.clusterRole(String(binding.role_ref?.name))?.rules ?? EVERYTHING, namespace: null });
  }
  for (const namespace of view.bindingNamespaces) {
    for (const binding of view.rbac.roleBindings(namespace)) {
      if (!names(binding, subject)) continue;
      const ref = binding.role_ref;
      const role = ref?.type === 'Role' ? view.rbac.role(namespace, String(ref.name)) : view.rbac.clusterRole(String(ref?.name));
      grants.push({ binding: `${namespace}/${nameOf(binding)}`, rules: role?.rules ?? EVERYTHING, namespace });
    }
  }
  return grants;
}

/**
 * Whether `actor` may make `username` a member of the groups `added` (and, for a new user, give them what bindings
 * naming that user already grant): each such binding may grant only what the actor holds where it applies. A
 * cluster admin holds everything. The refusal's message, or null.
 */
export function membershipProblem(view: GrantView, actor: Actor, username: string, added: readonly string[], isNew: boolean): string | null {
  if (isClusterAdmin(view.rbac, actor)) return null;
  const subjects: Subject[] = [...added.map((name) => ({ type: 'Group' as const, name })), ...(isNew ? [{ type: 'User' as const, name: username }] : [])];
  for (const subject of subjects) {
    for (const grant of grantsTo(view, subject)) {
      const what = firstUnheld(view.rbac, actor.username, actor.groups, grant.rules, grant.namespace);
      if (what === null) continue;
      const through = subject.type === 'Group' ? `add "${username}" to group "${subject.name}"` : `create user "${username}"`;
      return `unauthorized to perform action: user "${actor.username}" may not ${through}: binding "${grant.binding}" grants ${what}, which they do not hold themselves`;
    }
  }
  return null;
}

/** Only a cluster admin acts on another user's password or API keys; anyone on their own. The refusal, or null. */
export function otherUserProblem(rbac: RbacView, actor: Actor, username: string, what: 'reset the password of' | 'create an API key for'): string | null {
  if (username === actor.username || isClusterAdmin(rbac, actor)) return null;
  return `unauthorized to perform action: user "${actor.username}" may not ${what} user "${username}": only cluster admins act for another user`;
}

/**
 * Whether `actor` may change user `username` (member of `groups`): disabling, re-enabling or any other write. When
 * the user holds, through any binding naming them or their groups, something the actor does not, only a cluster
 * admin may (no one below locks out, or revives, someone above them). The refusal's message, or null.
 */
export function heldUserProblem(view: GrantView, actor: Actor, username: string, groups: readonly string[], action: string): string | null {
  if (username === actor.username || isClusterAdmin(view.rbac, actor)) return null;
  const subjects: Subject[] = [{ type: 'User', name: username }, ...groups.map((name) => ({ type: 'Group' as const, name }))];
  for (const subject of subjects) {
    for (const grant of grantsTo(view, subject)) {
      const what = firstUnheld(view.rbac, actor.username, actor.groups, grant.rules, grant.namespace);
      if (what === null) continue;
      return `unauthorized to perform action: user "${actor.username}" may not ${action} user "${username}": they hold ${what} (binding "${grant.binding}"), which "${actor.username}" does not; only cluster admins may`;
    }
  }
  return null;
}
