import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, NAME, type V2ApiDeps, type Caller } from './context.js';
import { listResponse } from './listing.js';
import { registerResourceRoutes, type ResourceKind } from './resources.js';
import { RBAC_FIELDS } from '../../v2/resource-fields.js';
import { shapeMetadata } from '../../v2/event-shape.js';
import { rulesProblem, bindingProblem, escalationProblem, type Rule } from '../../auth/rbac.js';
import { KIND, seedRbac, rbacView } from './rbac-store.js';

type Json = Record<string, any>;

/** The caller must hold what a role grants (its rules) or a binding hands out (its role's rules) where it applies. */
const grantsRules = (rulesOf: (deps: V2ApiDeps, namespace: string | null, resource: Json) => readonly Rule[]) =>
  (deps: V2ApiDeps, caller: Caller, namespace: string | null, resource: Json) =>
    escalationProblem(rbacView(deps.store.v2), caller.username, caller.groups, rulesOf(deps, namespace, resource), namespace);
const ownRules = (_deps: V2ApiDeps, _namespace: string | null, role: Json): readonly Rule[] => (Array.isArray(role.rules) ? role.rules : []);
const boundRules = (deps: V2ApiDeps, namespace: string | null, binding: Json): readonly Rule[] => {
  const view = rbacView(deps.store.v2);
  const ref = (binding.role_ref ?? {}) as Json;
  const role = ref.type === 'Role' && namespace !== null ? view.role(namespace, String(ref.name)) : view.clusterRole(String(ref.name));
  return role?.rules ?? [];
};

/** Namespaced Role and RoleBinding (a RoleBinding may use a Role of its namespace or any ClusterRole). */
export const RBAC_KINDS: ResourceKind[] = [
  { path: 'roles', type: KIND.role, validate: (r) => rulesProblem(r.rules), grantProblem: grantsRules(ownRules) },
  { path: 'rolebindings', type: KIND.roleBinding, validate: (b) => bindingProblem(b, ['Role', 'ClusterRole']), grantProblem: grantsRules(boundRules) },
];

const CLUSTER_KINDS: ResourceKind[] = [
  { path: 'clusterroles', type: KIND.clusterRole, validate: (r) => rulesProblem(r.rules), grantProblem: grantsRules(ownRules) },
  { path: 'clusterrolebindings', type: KIND.clusterRoleBinding, validate: (b) => bindingProblem(b, ['ClusterRole']), grantProblem: grantsRules(boundRules) },
];

/** Cluster-wide CRUD for one kind: no namespace in metadata; POST creates (409 if it exists), PUT creates or replaces. */
function registerClusterRoutes(app: FastifyInstance, deps: V2ApiDeps, kind: ResourceKind): void {
  const v2 = deps.store.v2;
  const base = `/api/core/v2/${kind.path}`;
  const write = (mode: 'create' | 'upsert') => (request: FastifyRequest, reply: FastifyReply) => {
    const name = (request.params as { name?: string }).name;
    const body = request.body as Json | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(reply, 'invalid', 'request body must be a JSON object');
    const metadata = { ...(body.metadata ?? {}) };
    if (name !== undefined) metadata.name ||= name;
    if (metadata.namespace) return fail(reply, 'invalid', `${kind.path} are cluster-wide: metadata.namespace must be empty`);
    if (name !== undefined && metadata.name !== name) return fail(reply, 'invalid', `the name of the resource (${metadata.name}) does not match the name of the URI (${name})`);
    if (!metadata.name || !NAME.test(String(metadata.name))) return fail(reply, 'invalid', 'name must be 1 to 255 letters, digits, _ . - :');
    const problem = kind.validate(body);
    if (problem) return fail(reply, 'invalid', problem);
    const refused = kind.grantProblem?.(deps, callerOf(request), null, body);
    if (refused) return fail(reply, 'forbidden', refused);
    if (mode === 'create' && v2.getResource(kind.type, '', metadata.name)) return fail(reply, 'exists', 'resource already exists');
    metadata.created_by = callerOf(request).username;
    v2.putResource(kind.type, '', String(metadata.name), { ...body, metadata: shapeMetadata(metadata) });
    return reply.code(201).type('application/json').send();
  };
  const fields = RBAC_FIELDS.get(kind.path)!;
  app.get(base, (request, reply) => listResponse(request, reply, v2.listResources(kind.type, '') as Json[], fields, (r) => String(r.metadata?.name ?? '')));
  app.get(`${base}/:name`, (request, reply) => v2.getResource(kind.type, '', (request.params as { name: string }).name) ?? fail(reply, 'notFound', 'not found'));
  app.post(base, write('create'));
  app.put(`${base}/:name`, write('upsert'));
  app.delete(`${base}/:name`, (request, reply) => (v2.deleteResource(kind.type, '', (request.params as { name: string }).name) ? reply.code(204).send() : fail(reply, 'notFound', 'not found')));
}

/** RBAC resources (Sensu Go core/v2): roles and role bindings per namespace, cluster roles and bindings; seeded once. */
export function registerRbacRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  seedRbac(deps.store.v2);
  for (const kind of RBAC_KINDS) registerResourceRoutes(app, deps, kind);
  for (const kind of CLUSTER_KINDS) registerClusterRoutes(app, deps, kind);
}
