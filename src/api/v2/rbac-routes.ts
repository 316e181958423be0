import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps, Caller } from './context.js';
import { registerResourceRoutes } from './resources.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../v2/index.js';
import { rulesProblem, bindingProblem, escalationProblem, type Rule } from '../../auth/index.js';
import { RBAC_TYPE, seedRbac, rbacView, roleWritten, roleDeleted, bindingWritten, bindingDeleted } from './rbac-store.js';
import { resourceKind, type ResourceKind } from './resource-writer.js';

/** The caller must hold what a role grants (its rules) where it applies. */
const grantsOwnRules = (deps: V2ApiDeps, caller: Caller, namespace: string | null, role: Role | ClusterRole) =>
  escalationProblem(rbacView(deps.store.resources), caller.username, caller.groups, Array.isArray(role.rules) ? role.rules : [], namespace);

// Every permission: what a role that does not exist yet may come to grant.
const EVERYTHING: readonly Rule[] = [{ verbs: ['*'], resources: ['*'] }];

/**
 * The caller must hold what a binding hands out (its role's rules) where it applies. A role that does not exist
 * grants nothing today and whatever it is created with later: only a caller holding every permission there may
 * bind one ahead (Sensu Go checks neither; Kubernetes refuses it to those who may not `bind`).
 */
const grantsBoundRules = (deps: V2ApiDeps, caller: Caller, namespace: string | null, binding: RoleBinding | ClusterRoleBinding) => {
  const view = rbacView(deps.store.resources);
  const ref = binding.role_ref ?? {};
  const role = ref.type === 'Role' && namespace !== null ? view.role(namespace, String(ref.name)) : view.clusterRole(String(ref.name));
  if (role) return escalationProblem(view, caller.username, caller.groups, role.rules ?? [], namespace);
  if (!escalationProblem(view, caller.username, caller.groups, EVERYTHING, namespace)) return null;
  const where = ref.type === 'Role' ? ` in namespace "${namespace}"` : '';
  return `role_ref: ${String(ref.type)} "${String(ref.name)}" does not exist${where}: create it first (only a user holding every permission may bind a role before it exists)`;
};

/** Namespaced Role and RoleBinding (a RoleBinding may use a Role of its namespace or any ClusterRole). */
const RBAC_KINDS: ResourceKind[] = [
  resourceKind({
    path: 'roles',
    type: RBAC_TYPE.role,
    validate: (r) => rulesProblem(r.rules),
    grantProblem: grantsOwnRules,
    afterWrite: (deps, namespace, name, created) => roleWritten(deps.store.resources, 'Role', namespace, name, created),
    afterDelete: (deps, namespace, name) => roleDeleted(deps.store.resources, 'Role', namespace, name),
  }),
  resourceKind({
    path: 'rolebindings',
    type: RBAC_TYPE.roleBinding,
    validate: (b) => bindingProblem(b, ['Role', 'ClusterRole']),
    grantProblem: grantsBoundRules,
    afterWrite: (deps, namespace, name) => bindingWritten(deps.store.resources, namespace, name),
    afterDelete: (deps, namespace, name) => bindingDeleted(deps.store.resources, namespace, name),
  }),
];

/** ClusterRole and ClusterRoleBinding: stored under no namespace (a ClusterRoleBinding uses a ClusterRole). */
const CLUSTER_KINDS: ResourceKind[] = [
  resourceKind({
    path: 'clusterroles',
    clusterWide: true,
    type: RBAC_TYPE.clusterRole,
    validate: (r) => rulesProblem(r.rules),
    grantProblem: grantsOwnRules,
    afterWrite: (deps, _namespace, name, created) => roleWritten(deps.store.resources, 'ClusterRole', '', name, created),
    afterDelete: (deps, _namespace, name) => roleDeleted(deps.store.resources, 'ClusterRole', '', name),
  }),
  resourceKind({
    path: 'clusterrolebindings',
    clusterWide: true,
    type: RBAC_TYPE.clusterRoleBinding,
    validate: (b) => bindingProblem(b, ['ClusterRole']),
    grantProblem: grantsBoundRules,
    afterWrite: (deps, _namespace, name) => bindingWritten(deps.store.resources, '', name),
    afterDelete: (deps, _namespace, name) => bindingDeleted(deps.store.resources, '', name),
  }),
];

/** RBAC resources (Sensu Go core/v2): roles and role bindings per namespace, cluster roles and bindings; seeded once. */
export function registerRbacRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  seedRbac(deps.store.resources);
  for (const kind of [...RBAC_KINDS, ...CLUSTER_KINDS]) registerResourceRoutes(app, deps, kind);
}
