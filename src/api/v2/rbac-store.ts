import type { ResourceTables } from '../../store/index.js';
import { BUILT_IN_CLUSTER_ROLES, BUILT_IN_CLUSTER_ROLE_BINDING, type Binding, type RbacView, type Rule } from '../../auth/index.js';

// Stored kinds: Role and RoleBinding per namespace, ClusterRole and ClusterRoleBinding cluster-wide (namespace '').
export const KIND = { role: 'Role', roleBinding: 'RoleBinding', clusterRole: 'ClusterRole', clusterRoleBinding: 'ClusterRoleBinding' } as const;

const asRole = (stored: Record<string, unknown> | null) => (stored ? { rules: (stored.rules ?? []) as Rule[] } : null);

/** The RBAC decision's view of the store, read afresh on each request (a change applies to the next request). */
export function rbacView(v2: ResourceTables): RbacView {
  return {
    clusterRole: (name) => asRole(v2.getResource(KIND.clusterRole, '', name)),
    role: (namespace, name) => asRole(v2.getResource(KIND.role, namespace, name)),
    clusterRoleBindings: () => v2.listResources(KIND.clusterRoleBinding, '') as unknown as Binding[],
    roleBindings: (namespace) => v2.listResources(KIND.roleBinding, namespace) as unknown as Binding[],
  };
}

/** Once, at the first start: the built-in ClusterRoles and the `cluster-admin` binding of group cluster-admins. */
export function seedRbac(v2: ResourceTables): void {
  if (v2.getResource('Seed', '', 'rbac')) return;
  for (const [name, rules] of BUILT_IN_CLUSTER_ROLES) {
    if (!v2.getResource(KIND.clusterRole, '', name)) v2.putResource(KIND.clusterRole, '', name, { rules, metadata: { name, created_by: 'system' } });
  }
  const { name, subjects, role_ref } = BUILT_IN_CLUSTER_ROLE_BINDING;
  if (!v2.getResource(KIND.clusterRoleBinding, '', name))
    v2.putResource(KIND.clusterRoleBinding, '', name, { subjects, role_ref, metadata: { name, created_by: 'system' } });
  v2.putResource('Seed', '', 'rbac', { seeded: true });
}
