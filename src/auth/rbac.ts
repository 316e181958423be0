// Role-based access control as Sensu Go has it (core/v2 rbac.go): rules of verbs × resources × resource names,
// bindings of subjects (users or groups) to a Role or ClusterRole. Pure: every lookup is handed in.
import type { Json } from '../json.js';

export type Verb = 'get' | 'list' | 'create' | 'update' | 'delete';
const VERBS: readonly string[] = ['get', 'list', 'create', 'update', 'delete', '*'];

export interface Rule {
  /** Absent or empty: the rule grants nothing (Sensu Go accepts such a rule). */
  readonly verbs?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  readonly resource_names?: readonly string[] | null;
}

export interface Subject {
  readonly type: 'User' | 'Group';
  readonly name: string;
}

export interface Binding {
  readonly subjects: readonly Subject[];
  readonly role_ref: { readonly type: 'Role' | 'ClusterRole'; readonly name: string };
}

/** What the decision reads: roles by name, bindings cluster-wide and per namespace. */
export interface RbacView {
  clusterRole(name: string): { rules: readonly Rule[] } | null;
  role(namespace: string, name: string): { rules: readonly Rule[] } | null;
  clusterRoleBindings(): readonly Binding[];
  roleBindings(namespace: string): readonly Binding[];
}

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** Namespaced resource kinds a ClusterRole bound in a namespace (or a Role) may cover. */
const NAMESPACED_RESOURCES = ['assets', 'checks', 'entities', 'events', 'filters', 'handlers', 'hooks', 'mutators', 'pipelines', 'silenced'];

const rule = (verbs: string[], resources: string[]): Rule => ({ verbs, resources, resource_names: null });

/** Sensu Go's CommonCoreResources, what its seeded roles grant: pipelines are not among them (granted by name only). */
const COMMON_CORE_RESOURCES = NAMESPACED_RESOURCES.filter((kind) => kind !== 'pipelines');

/** The seeded ClusterRoles (Sensu Go backend/seeds) and the binding that makes group `cluster-admins` all-powerful. */
export const BUILT_IN_CLUSTER_ROLES: ReadonlyMap<string, Rule[]> = new Map([
  ['cluster-admin', [rule(['*'], ['*'])]],
  ['admin', [rule(['*'], [...COMMON_CORE_RESOURCES, 'roles', 'rolebindings']), rule(['get', 'list'], ['namespaces'])]],
  ['edit', [rule(['*'], COMMON_CORE_RESOURCES), rule(['get', 'list'], ['namespaces'])]],
  ['view', [rule(['get', 'list'], [...COMMON_CORE_RESOURCES, 'namespaces'])]],
]);
export const BUILT_IN_CLUSTER_ROLE_BINDING = {
  name: 'cluster-admin',
  subjects: [{ type: 'Group', name: 'cluster-admins' }],
  role_ref: { type: 'ClusterRole', name: 'cluster-admin' },
} as const;

const covers = (list: readonly string[] | null | undefined, value: string) => Array.isArray(list) && (list.includes('*') || list.includes(value));

/** A rule allows the verb on the resource and, when it names resources, on this one (a list needs no name). */
function ruleAllows(r: Rule, verb: Verb, resource: string, name: string | null): boolean {
  if (!covers(r.verbs, verb) || !covers(r.resources, resource)) return false;
  const names = r.resource_names;
  return !Array.isArray(names) || names.length === 0 || (name !== null && names.includes(name));
}

const bindsCaller = (binding: Binding, username: string, groups: readonly string[]) =>
  Array.isArray(binding.subjects) && binding.subjects.some((s) => (s.type === 'User' ? s.name === username : s.type === 'Group' && groups.includes(s.name)));

/**
 * May `username` (member of `groups`) do `verb` on `resource` `name` in `namespace` (null: a cluster-wide resource,
 * or all namespaces)? ClusterRoleBindings apply everywhere; RoleBindings only in their namespace and never to
 * cluster-wide resources.
 */
export function authorize(
  view: RbacView,
  username: string,
  groups: readonly string[],
  verb: Verb,
  resource: string,
  namespace: string | null,
  name: string | null,
): Decision {
  const allows = (role: { rules: readonly Rule[] } | null) =>
    Boolean(role && Array.isArray(role.rules) && role.rules.some((r) => ruleAllows(r, verb, resource, name)));
  for (const binding of view.clusterRoleBindings()) {
    if (binding.role_ref?.type === 'ClusterRole' && bindsCaller(binding, username, groups) && allows(view.clusterRole(binding.role_ref.name)))
      return { allowed: true };
  }
  if (namespace !== null) {
    for (const binding of view.roleBindings(namespace)) {
      if (!bindsCaller(binding, username, groups)) continue;
      const role =
        binding.role_ref?.type === 'ClusterRole'
          ? view.clusterRole(binding.role_ref.name)
          : binding.role_ref?.type === 'Role'
            ? view.role(namespace, binding.role_ref.name)
            : null;
      if (allows(role)) return { allowed: true };
    }
  }
  const target = `${resource}${name === null ? '' : ` "${name}"`}${namespace === null ? ' (cluster-wide)' : ` in namespace "${namespace}"`}`;
  return { allowed: false, reason: `unauthorized to perform action: user "${username}" may not ${verb} ${target}` };
}

/** The first reason a list of rules is malformed, or null. */
export function rulesProblem(rules: unknown): string | null {
  if (!Array.isArray(rules) || rules.length === 0) return 'rules must be a non-empty array';
  for (const [i, r] of (rules as Json[]).entries()) {
    if (!r || typeof r !== 'object') return `rules[${i}] must be an object`;
    // An empty or absent list is accepted, as in Sensu Go (a dump restores): such a rule grants nothing.
    if (r.verbs != null && (!Array.isArray(r.verbs) || r.verbs.some((v: unknown) => typeof v !== 'string' || !VERBS.includes(v))))
      return `rules[${i}].verbs must be a list of ${VERBS.join(', ')}`;
    if (r.resources != null && (!Array.isArray(r.resources) || r.resources.some((v: unknown) => typeof v !== 'string' || v === '')))
      return `rules[${i}].resources must be a list of resource names`;
    if (r.resource_names != null && (!Array.isArray(r.resource_names) || r.resource_names.some((v: unknown) => typeof v !== 'string')))
      return `rules[${i}].resource_names must be a list of strings`;
  }
  return null;
}

/** The first reason a binding is malformed, or null; `roleTypes` are the role_ref types this binding kind may use. */
export function bindingProblem(binding: Json, roleTypes: readonly string[]): string | null {
  const ref = binding.role_ref;
  if (!ref || typeof ref !== 'object' || !roleTypes.includes(ref.type)) return `role_ref.type must be ${roleTypes.join(' or ')}`;
  if (typeof ref.name !== 'string' || ref.name === '') return 'role_ref.name must be set';
  if (!Array.isArray(binding.subjects) || binding.subjects.length === 0) return 'subjects must be a non-empty array';
  for (const [i, s] of (binding.subjects as Json[]).entries()) {
    if (!s || !['User', 'Group'].includes(s.type) || typeof s.name !== 'string' || s.name === '')
      return `subjects[${i}] must have type User or Group and a name`;
  }
  return null;
}

/** The first permission `rules` grant (in `namespace`, or cluster-wide when null) that the caller does not hold, described; or null. */
export function firstUnheld(view: RbacView, username: string, groups: readonly string[], rules: readonly Rule[], namespace: string | null): string | null {
  for (const r of rules) {
    // Each permission asked once: a list repeating a verb or resource would otherwise multiply the work.
    const names = Array.isArray(r.resource_names) && r.resource_names.length > 0 ? [...new Set(r.resource_names)] : [null];
    for (const verb of new Set(r.verbs ?? [])) {
      for (const resource of new Set(r.resources ?? [])) {
        // Held for every name of the resource: held for each one named.
        if (names[0] !== null && authorize(view, username, groups, verb as Verb, resource, namespace, null).allowed) continue;
        for (const name of names) {
          if (authorize(view, username, groups, verb as Verb, resource, namespace, name).allowed) continue;
          return `${verb} on ${resource}${name === null ? '' : ` "${name}"`}${namespace === null ? ' cluster-wide' : ` in namespace "${namespace}"`}`;
        }
      }
    }
  }
  return null;
}

/**
 * Whether the caller holds every permission `rules` grant (in `namespace`, or cluster-wide when null): nobody may
 * grant what they do not hold themselves (Kubernetes' escalation rule), so a namespace admin cannot bind
 * cluster-admin, nor write a Role of `*` on `*`. The first permission not held, or null.
 */
export function escalationProblem(
  view: RbacView,
  username: string,
  groups: readonly string[],
  rules: readonly Rule[],
  namespace: string | null,
): string | null {
  const what = firstUnheld(view, username, groups, rules, namespace);
  return what === null ? null : `unauthorized to perform action: user "${username}" may not grant ${what}, which they do not hold themselves`;
}

/**
 * The namespaces a caller may list (Sensu Go's ListNamespaces): every one through a ClusterRoleBinding whose rule
 * may get namespaces (or only those it names) or any namespaced kind, and each namespace where a RoleBinding gives
 * them a rule that may get anything. Null: every namespace.
 */
export function visibleNamespaces(view: RbacView, username: string, groups: readonly string[], namespaces: readonly string[]): Set<string> | null {
  const seen = new Set<string>();
  const getters = (role: { rules: readonly Rule[] } | null) => (role && Array.isArray(role.rules) ? role.rules.filter((r) => covers(r.verbs, 'get')) : []);
  for (const binding of view.clusterRoleBindings()) {
    if (binding.role_ref?.type !== 'ClusterRole' || !bindsCaller(binding, username, groups)) continue;
    for (const r of getters(view.clusterRole(binding.role_ref.name))) {
      const names = Array.isArray(r.resource_names) && r.resource_names.length > 0 ? r.resource_names : null;
      if (covers(r.resources, 'namespaces') && names === null) return null;
      if (covers(r.resources, 'namespaces')) for (const n of names!) seen.add(n);
      else if (NAMESPACED_RESOURCES.some((kind) => covers(r.resources, kind))) return null;
    }
  }
  for (const namespace of namespaces) {
    for (const binding of view.roleBindings(namespace)) {
      if (!bindsCaller(binding, username, groups)) continue;
      const ref = binding.role_ref;
      const role = ref?.type === 'ClusterRole' ? view.clusterRole(ref.name) : ref?.type === 'Role' ? view.role(namespace, ref.name) : null;
      if (getters(role).length > 0) seen.add(namespace);
    }
  }
  return seen;
}
