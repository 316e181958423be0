import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, NAME, type V2ApiDeps } from './context.js';
import { paginate } from './paginate.js';
import { shapeMetadata } from '../../v2/event-shape.js';

type Json = Record<string, any>;

export interface ResourceKind {
  /** URL segment, e.g. `handlers`. */
  readonly path: string;
  /** Stored kind and wrapped `type`, e.g. `Handler`. */
  readonly type: string;
  /** The first reason a resource is invalid, or null. */
  readonly validate: (resource: Json) => string | null;
}

const HANDLER_TYPES = ['pipe', 'tcp', 'udp', 'set', 'grpc'];

export const KINDS: ResourceKind[] = [
  {
    path: 'handlers',
    type: 'Handler',
    validate: (h) =>
      !HANDLER_TYPES.includes(h.type) ? `handler type must be one of ${HANDLER_TYPES.join(', ')}`
      : h.type === 'pipe' && typeof h.command !== 'string' ? 'missing command'
      : (h.type === 'tcp' || h.type === 'udp') && !(h.socket?.host && Number.isInteger(h.socket?.port)) ? 'missing socket host or port'
      : h.timeout !== undefined && !(Number.isInteger(h.timeout) && h.timeout >= 0) ? 'timeout must be a non-negative integer'
      : null,
  },
  {
    path: 'pipelines',
    type: 'Pipeline',
    validate: (p) =>
      !Array.isArray(p.workflows ?? []) ? 'workflows must be an array'
      : ((p.workflows ?? []) as Json[]).some((w) => !w?.name || !w?.handler?.name) ? 'each workflow needs a name and a handler reference'
      : null,
  },
  { path: 'mutators', type: 'Mutator', validate: (m) => (typeof m.command !== 'string' && m.type !== 'javascript' ? 'missing command' : null) },
];

/** Generic namespaced CRUD (reference v2-api §2.2): POST creates (409 if it exists), PUT creates or replaces. */
export function registerResourceRoutes(app: FastifyInstance, deps: V2ApiDeps, kind: ResourceKind): void {
  const v2 = deps.store.v2;
  const base = `/api/core/v2/namespaces/:namespace/${kind.path}`;
  const write = (mode: 'create' | 'upsert') => (request: FastifyRequest, reply: FastifyReply) => {
    const { namespace, name } = request.params as { namespace: string; name?: string };
    const body = request.body as Json | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(reply, 'invalid', 'request body must be a JSON object');
    const metadata = { ...(body.metadata ?? {}) };
    metadata.namespace ||= namespace;
    if (name !== undefined) metadata.name ||= name;
    if (metadata.namespace !== namespace) return fail(reply, 'invalid', `the namespace of the resource (${metadata.namespace}) does not match the namespace of the URI (${namespace})`);
    if (name !== undefined && metadata.name !== name) return fail(reply, 'invalid', `the name of the resource (${metadata.name}) does not match the name of the URI (${name})`);
    if (!metadata.name || !NAME.test(String(metadata.name))) return fail(reply, 'invalid', 'name must not be empty and may hold only letters, digits, _ . - :');
    const problem = kind.validate(body);
    if (problem) return fail(reply, 'invalid', problem);
    if (mode === 'create' && v2.getResource(kind.type, namespace, metadata.name)) return fail(reply, 'exists', 'resource already exists');
    metadata.created_by = callerOf(request).username;
    v2.putResource(kind.type, namespace, String(metadata.name), { ...body, metadata: shapeMetadata(metadata) });
    return reply.code(201).type('application/json').send();
  };
  app.get(base, (request, reply) => paginate(request, reply, v2.listResources(kind.type, (request.params as { namespace: string }).namespace)));
  app.get(`${base}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    return v2.getResource(kind.type, namespace, name) ?? fail(reply, 'notFound', 'not found');
  });
  app.post(base, write('create'));
  app.put(`${base}/:name`, write('upsert'));
  app.delete(`${base}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    return v2.deleteResource(kind.type, namespace, name) ? reply.code(204).send() : fail(reply, 'notFound', 'not found');
  });
}
