import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, eventStoreOf, type V2ApiDeps } from './context.js';
import { sensuNameProblem } from '../../rules/index.js';
import { listResponse } from './listing.js';
import { created } from './resource-writer.js';
import { mergePatchRoute } from './merge-patch.js';
import { rbacView } from './rbac-store.js';
import { visibleNamespaces } from '../../auth/index.js';
import { NAMESPACE_FIELDS } from '../../v2/index.js';

const DEFAULT_NAMESPACE = 'default';

/** Whether the caller may see every namespace, and so learn that one does not exist. */
const isClusterReader = (deps: V2ApiDeps, request: FastifyRequest) =>
  visibleNamespaces(rbacView(deps.store.resources), callerOf(request).username, callerOf(request).groups, []) === null;

/** The namespaces the caller may see: all with a cluster-wide grant, else those where a binding gives them something. */
function namespacesFor(deps: V2ApiDeps, request: FastifyRequest): { name: string }[] {
  const all = deps.store.resources.listResources('Namespace', '').map((n) => ({ name: String(n.name) }));
  const { username, groups } = callerOf(request);
  const visible = visibleNamespaces(
    rbacView(deps.store.resources),
    username,
    groups,
    all.map((n) => String(n.name)),
  );
  return visible === null ? all : all.filter((n) => visible.has(String(n.name)));
}

/** Namespaces (cluster-wide): PUT creates or keeps, GET lists, DELETE refuses while anything lives in it. */
export function registerNamespaceRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.resources;
  // The default namespace exists from the first start: every legacy event lives there.
  if (!v2.getResource('Namespace', '', DEFAULT_NAMESPACE)) v2.putResource('Namespace', '', DEFAULT_NAMESPACE, { name: DEFAULT_NAMESPACE });
  // Each caller sees the namespaces they hold a grant in (access.ts lets every authenticated caller in); none: 403.
  app.get('/api/core/v2/namespaces', (request, reply) => {
    const visible = namespacesFor(deps, request);
    if (visible.length === 0)
      return fail(reply, 'forbidden', `unauthorized to perform action: user "${callerOf(request).username}" holds no grant in any namespace`);
    return listResponse(request, reply, visible, NAMESPACE_FIELDS, (n) => String(n.name));
  });
  // One namespace: to whoever would see it listed.
  app.get('/api/core/v2/namespaces/:name', (request, reply) => {
    const name = (request.params as { name: string }).name;
    if (!namespacesFor(deps, request).some((n) => n.name === name))
      return v2.getResource('Namespace', '', name) || !isClusterReader(deps, request)
        ? fail(reply, 'forbidden', `unauthorized to perform action: user "${callerOf(request).username}" may not get namespaces "${name}"`)
        : fail(reply, 'notFound', 'not found');
    return { name };
  });
  const put = (respond: typeof created) => (request: FastifyRequest, reply: FastifyReply) => {
    const name = (request.params as { name: string }).name;
    const body = (request.body ?? {}) as { name?: unknown };
    if (body.name !== undefined && body.name !== name)
      return fail(reply, 'invalid', `the name of the resource (${String(body.name)}) does not match the name of the URI (${name})`);
    const badName = sensuNameProblem(name);
    if (badName) return fail(reply, 'invalid', badName);
    v2.putResource('Namespace', '', name, { name });
    return respond(reply, '', name);
  };
  app.put('/api/core/v2/namespaces/:name', put(created));
  const stored = (request: FastifyRequest) => v2.getResource('Namespace', '', (request.params as { name: string }).name);
  app.patch(
    '/api/core/v2/namespaces/:name',
    mergePatchRoute(
      stored,
      put((reply, _ns, name) => reply.code(200).send({ name })),
    ),
  );
  // `sensuctl namespace create NAME`: `{"name": NAME}`, 409 when it exists.
  app.post('/api/core/v2/namespaces', (request, reply) => {
    const body = request.body as { name?: unknown; metadata?: { name?: unknown } | null } | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(reply, 'invalid', 'request body must be a JSON object: {"name": <namespace>}');
    const name = body.name ?? body.metadata?.name;
    const badName = sensuNameProblem(name);
    if (badName) return fail(reply, 'invalid', badName);
    // The name rule let only a string through.
    const named = String(name);
    if (v2.getResource('Namespace', '', named)) return fail(reply, 'exists', 'resource already exists');
    v2.putResource('Namespace', '', named, { name: named });
    return reply.code(201).type('application/json').send();
  });
  app.delete('/api/core/v2/namespaces/:name', async (request, reply) => {
    const name = (request.params as { name: string }).name;
    if (name === DEFAULT_NAMESPACE) return fail(reply, 'conflict', 'the default namespace cannot be deleted');
    // Events may live in PostgreSQL: ask the event store in use; everything else is in the embedded store.
    const references = v2.namespaceReferences(name).filter((r) => r.kind !== 'Event');
    if (await eventStoreOf(deps).hasEvents(name)) references.unshift({ kind: 'Event', name: '(its events)' });
    if (references.length > 0) {
      const named = references
        .slice(0, 10)
        .map((r) => `${r.kind} ${r.name}`)
        .join(', ');
      return fail(
        reply,
        'conflict',
        `namespace ${name} is referenced by ${named}${references.length > 10 ? ` and ${references.length - 10} more` : ''}: delete them first`,
      );
    }
    return v2.deleteResource('Namespace', '', name) ? reply.code(204).send() : fail(reply, 'notFound', 'not found');
  });
}
