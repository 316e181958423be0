import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, type V2ApiDeps, type Caller } from './context.js';
import { sensuNameProblem } from '../../rules/index.js';
import { listResponse } from './listing.js';
import { registerResourceRoutes, type ResourceKind } from './resources.js';
import { RBAC_FIELDS, decodeAs, serveAs, shapeMetadata } from '../../v2/index.js';
import { rulesProblem, bindingProblem, escalationProblem, type Rule } from '../../auth/index.js';
import { KIND, seedRbac, rbacView, roleWritten, roleDeleted, bindingWritten, bindingDeleted } from './rbac-store.js';
import { created } from './resource-writer.js';
import { mergePatchRoute } from './merge-patch.js';
import type { Json } from '../../json.js';

/** The caller must hold what a role grants (its rules) where it applies. */
const grantsOwnRules = (deps: V2ApiDeps, caller: Caller, namespace: string | null, role: Json) =>
  escalationProblem(rbacView(deps.store.resources), caller.username, caller.groups, Array.isArray(role.rules) ? role.rules : [], namespace);

// Every permission: what a role that does not exist yet may come to grant.
const EVERYTHING: readonly Rule[] = [{ verbs: ['*'], resources: ['*'] }];

/**
 * The caller must hold what a binding hands out (its role's rules) where it applies. A role that does not exist
 * grants nothing today and whatever it is created with later: only a caller holding every permission there may
 * bind one ahead (Sensu Go checks neither; Kubernetes refuses it to those who may not `bind`).
 */
const grantsBoundRules = (deps: V2ApiDeps, caller: Caller, namespace: string | null, binding: Json) => {
  const view = rbacView(deps.store.resources);
  const ref = (binding.role_ref ?? {}) as Json;
  const role = ref.type === 'Role' && namespace !== null ? view.role(namespace, String(ref.name)) : view.clusterRole(String(ref.name));
  if (role) return escalationProblem(view, caller.username, caller.groups, role.rules ?? [], namespace);
  if (!escalationProblem(view, caller.username, caller.groups, EVERYTHING, namespace)) return null;
  const where = ref.type === 'Role' ? ` in namespace "${namespace}"` : '';
  return `role_ref: ${String(ref.type)} "${String(ref.name)}" does not exist${where}: create it first (only a user holding every permission may bind a role before it exists)`;
};

/** Namespaced Role and RoleBinding (a RoleBinding may use a Role of its namespace or any ClusterRole). */
const RBAC_KINDS: ResourceKind[] = [
  {
    path: 'roles',
    type: KIND.role,
    validate: (r) => rulesProblem(r.rules),
    grantProblem: grantsOwnRules,
    afterWrite: (deps, namespace, name, created) => roleWritten(deps.store.resources, 'Role', namespace, name, created),
    afterDelete: (deps, namespace, name) => roleDeleted(deps.store.resources, 'Role', namespace, name),
  },
  {
    path: 'rolebindings',
    type: KIND.roleBinding,
    validate: (b) => bindingProblem(b, ['Role', 'ClusterRole']),
    grantProblem: grantsBoundRules,
    afterWrite: (deps, namespace, name) => bindingWritten(deps.store.resources, namespace, name),
    afterDelete: (deps, namespace, name) => bindingDeleted(deps.store.resources, namespace, name),
  },
];

const CLUSTER_KINDS: ResourceKind[] = [
  {
    path: 'clusterroles',
    type: KIND.clusterRole,
    validate: (r) => rulesProblem(r.rules),
    grantProblem: grantsOwnRules,
    afterWrite: (deps, _namespace, name, created) => roleWritten(deps.store.resources, 'ClusterRole', '', name, created),
    afterDelete: (deps, _namespace, name) => roleDeleted(deps.store.resources, 'ClusterRole', '', name),
  },
  {
    path: 'clusterrolebindings',
    type: KIND.clusterRoleBinding,
    validate: (b) => bindingProblem(b, ['ClusterRole']),
    grantProblem: grantsBoundRules,
    afterWrite: (deps, _namespace, name) => bindingWritten(deps.store.resources, '', name),
    afterDelete: (deps, _namespace, name) => bindingDeleted(deps.store.resources, '', name),
  },
];

/** Cluster-wide CRUD for one kind: no namespace in metadata; POST creates (409 if it exists), PUT creates or replaces. */
function registerClusterRoutes(app: FastifyInstance, deps: V2ApiDeps, kind: ResourceKind): void {
  const v2 = deps.store.resources;
  const base = `/api/core/v2/${kind.path}`;
  const write =
    (mode: 'create' | 'upsert', respond = created) =>
    (request: FastifyRequest, reply: FastifyReply) => {
      const name = (request.params as { name?: string }).name;
      const { value: body, problem: undecodable } = decodeAs(kind.type, request.body);
      if (!body) return fail(reply, 'invalid', undecodable);
      const metadata = { ...(body.metadata ?? {}) };
      if (name !== undefined) metadata.name ||= name;
      if (metadata.namespace) return fail(reply, 'invalid', `${kind.path} are cluster-wide: metadata.namespace must be empty`);
      if (name !== undefined && metadata.name !== name)
        return fail(reply, 'invalid', `the name of the resource (${metadata.name}) does not match the name of the URI (${name})`);
      const badName = sensuNameProblem(metadata.name);
      if (badName) return fail(reply, 'invalid', badName);
      const problem = kind.validate(body);
      if (problem) return fail(reply, 'invalid', problem);
      const refused = kind.grantProblem?.(deps, callerOf(request), null, body);
      if (refused) return fail(reply, 'forbidden', refused);
      const existing = v2.getResource(kind.type, '', metadata.name);
      if (mode === 'create' && existing) return fail(reply, 'exists', 'resource already exists');
      metadata.created_by = callerOf(request).username;
      v2.putResource(kind.type, '', String(metadata.name), { ...body, metadata: shapeMetadata(metadata) });
      kind.afterWrite?.(deps, '', String(metadata.name), !existing);
      return respond(reply, '', String(metadata.name));
    };
  const fields = RBAC_FIELDS.get(kind.path)!;
  const served = (item: Json) => serveAs(kind.type, item);
  app.get(base, (request, reply) => listResponse(request, reply, v2.listResources(kind.type, '').map(served), fields, (r) => String(r.metadata?.name ?? '')));
  app.get(`${base}/:name`, (request, reply) => {
    const found = v2.getResource(kind.type, '', (request.params as { name: string }).name);
    return found ? served(found) : fail(reply, 'notFound', 'not found');
  });
  app.post(base, write('create'));
  app.put(`${base}/:name`, write('upsert'));
  app.delete(`${base}/:name`, (request, reply) => {
    const name = (request.params as { name: string }).name;
    if (!v2.deleteResource(kind.type, '', name)) return fail(reply, 'notFound', 'not found');
    kind.afterDelete?.(deps, '', name);
    return reply.code(204).send();
  });
  const stored = (request: FastifyRequest) => v2.getResource(kind.type, '', (request.params as { name: string }).name);
  app.patch(
    `${base}/:name`,
    mergePatchRoute(
      stored,
      write('upsert', (reply, _ns, name) => reply.code(200).send(served(v2.getResource(kind.type, '', name)!))),
    ),
  );
}

/** RBAC resources (Sensu Go core/v2): roles and role bindings per namespace, cluster roles and bindings; seeded once. */
export function registerRbacRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  seedRbac(deps.store.resources);
  for (const kind of RBAC_KINDS) registerResourceRoutes(app, deps, kind);
  for (const kind of CLUSTER_KINDS) registerClusterRoutes(app, deps, kind);
}
