import { randomUUID } from 'node:crypto';
import type { ResourceTables } from '../store/index.js';
import { BUILT_IN_CLUSTER_ROLES, BUILT_IN_CLUSTER_ROLE_BINDING, type Binding, type RbacView, type Rule } from './rbac.js';

// Stored kinds: Role and RoleBinding per namespace, ClusterRole and ClusterRoleBinding cluster-wide (namespace '').
export const RBAC_TYPE = { role: 'Role', roleBinding: 'RoleBinding', clusterRole: 'ClusterRole', clusterRoleBinding: 'ClusterRoleBinding' } as const;

const asRole = (stored: { readonly rules?: unknown } | null) => (stored ? { rules: (stored.rules ?? []) as Rule[] } : null);

// Each role of a name has a generation, new when the role is created; a binding written while its role exists applies
// to that generation alone, so that a role deleted and created again does not revive the old bindings. Kept apart
// from the resources (cluster-wide rows named `namespace/name`, `/name` for cluster-wide ones) so none is served.
const GENERATION = 'RoleGeneration';
const TARGET = 'BindingTarget';
// Roles stored before generations existed.
const ORIGINAL = 'original';
type RoleType = 'Role' | 'ClusterRole';
const roleKey = (type: RoleType, namespace: string, name: string) => (type === 'ClusterRole' ? `/${name}` : `${namespace}/${name}`);
const recorded = (v2: ResourceTables, type: RoleType, namespace: string, name: string) =>
  String(v2.getResource(GENERATION, '', roleKey(type, namespace, name))?.uid ?? ORIGINAL);

/** The generation of the role a binding refers to, or null when no such role exists. */
function generationOf(v2: ResourceTables, type: unknown, namespace: string, name: unknown): string | null {
  if (type !== 'Role' && type !== 'ClusterRole') return null;
  const exists = type === 'Role' ? v2.getResource(RBAC_TYPE.role, namespace, String(name)) : v2.getResource(RBAC_TYPE.clusterRole, '', String(name));
  return exists ? recorded(v2, type, namespace, String(name)) : null;
}

/** A role was written: a new one starts a generation. */
export function roleWritten(v2: ResourceTables, type: RoleType, namespace: string, name: string, created: boolean): void {
  if (created) v2.putResource(GENERATION, '', roleKey(type, namespace, name), { uid: randomUUID() });
}

/** A binding was written (namespace '' for a ClusterRoleBinding): it applies to its role as it is now, or to the next one of that name. */
export function bindingWritten(v2: ResourceTables, namespace: string, name: string): void {
  const binding = v2.getResource(namespace === '' ? RBAC_TYPE.clusterRoleBinding : RBAC_TYPE.roleBinding, namespace, name);
  const generation = generationOf(v2, binding?.role_ref?.type, namespace, binding?.role_ref?.name);
  if (generation === null) v2.deleteResource(TARGET, '', `${namespace}/${name}`);
  else v2.putResource(TARGET, '', `${namespace}/${name}`, { uid: generation });
}

export const bindingDeleted = (v2: ResourceTables, namespace: string, name: string): void => void v2.deleteResource(TARGET, '', `${namespace}/${name}`);

/** A role was deleted: the bindings still naming it stay with its generation, which no later role of that name has. */
export function roleDeleted(v2: ResourceTables, type: RoleType, namespace: string, name: string): void {
  const generation = recorded(v2, type, namespace, name);
  const inNamespace = (ns: string) => v2.listResources(RBAC_TYPE.roleBinding, ns).map((b) => [ns, b] as const);
  const bound =
    type === 'Role'
      ? inNamespace(namespace)
      : [...v2.listResources(RBAC_TYPE.clusterRoleBinding, '').map((b) => ['', b] as const), ...v2.namespacesWith(RBAC_TYPE.roleBinding).flatMap(inNamespace)];
  for (const [ns, binding] of bound) {
    const key = `${ns}/${String(binding.metadata?.name)}`;
    if (binding.role_ref?.type === type && binding.role_ref?.name === name && !v2.getResource(TARGET, '', key))
      v2.putResource(TARGET, '', key, { uid: generation });
  }
  v2.deleteResource(GENERATION, '', roleKey(type, namespace, name));
}

/** Whether a binding applies: written for its role's present generation, or before its role existed. */
function applies(v2: ResourceTables, namespace: string, binding: Binding): boolean {
  const target = v2.getResource(TARGET, '', `${namespace}/${String((binding as unknown as { metadata?: { name?: string } }).metadata?.name)}`);
  return !target || target.uid === generationOf(v2, binding.role_ref?.type, namespace, binding.role_ref?.name);
}

/** The RBAC decision's view of the store, read afresh on each request (a change applies to the next request). */
export function rbacView(v2: ResourceTables): RbacView {
  return {
    clusterRole: (name) => asRole(v2.getResource(RBAC_TYPE.clusterRole, '', name)),
    role: (namespace, name) => asRole(v2.getResource(RBAC_TYPE.role, namespace, name)),
    clusterRoleBindings: () => (v2.listResources(RBAC_TYPE.clusterRoleBinding, '') as unknown as Binding[]).filter((b) => applies(v2, '', b)),
    roleBindings: (namespace) => (v2.listResources(RBAC_TYPE.roleBinding, namespace) as unknown as Binding[]).filter((b) => applies(v2, namespace, b)),
  };
}

/** Once, at the first start: the built-in ClusterRoles and the `cluster-admin` binding of group cluster-admins. */
export function seedRbac(v2: ResourceTables): void {
  if (v2.getResource('Seed', '', 'rbac')) return;
  for (const [name, rules] of BUILT_IN_CLUSTER_ROLES) {
    if (!v2.getResource(RBAC_TYPE.clusterRole, '', name)) v2.putResource(RBAC_TYPE.clusterRole, '', name, { rules, metadata: { name } });
  }
  const { name, subjects, role_ref } = BUILT_IN_CLUSTER_ROLE_BINDING;
  if (!v2.getResource(RBAC_TYPE.clusterRoleBinding, '', name))
    v2.putResource(RBAC_TYPE.clusterRoleBinding, '', name, { subjects, role_ref, metadata: { name } });
  v2.putResource('Seed', '', 'rbac', { seeded: true });
}
