import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, nowS, type V2ApiDeps } from './context.js';
import { listResponse } from './listing.js';
import { entityTable, legacyClientOnly, deleteEntityEvents, agentManaged } from './entity-view.js';
import { SILENCED } from './silenced.js';
import {
  RBAC_FIELDS,
  RESOURCE_FIELDS,
  decodeAs,
  redactedMetadata,
  serveAs,
  shapeMetadata,
  typeProblem,
  type ObjectMeta,
  type SensuGoTypes,
} from '../../v2/index.js';
import { assetNameProblem, kindProblem, sensuNameProblem } from '../../rules/index.js';
import { assetProblem, runtimeAssetsProblem } from '../../assets/index.js';
import { SECRET_USERS } from '../../secrets/index.js';
import { secretRefsProblem } from '../../config/index.js';
import { mergePatchRoute } from './merge-patch.js';
import { created, resourceKind, type Resource, type ResourceKind, type ResourceWriter } from './resource-writer.js';

export type { ResourceKind } from './resource-writer.js';

/**
 * Why nothing may be written into `namespace`: it does not exist; null when it exists. The message is Sensu Go's
 * store's (`ErrNamespaceMissing`); its apid lets that error through as a 500, the v2 API answers 404 (nothing failed).
 */
export function missingNamespace(v2: V2ApiDeps['store']['resources'], namespace: string): string | null {
  return v2.namespaceExists(namespace) ? null : `the namespace ${namespace} does not exist`;
}

// Each kind's validation is the rule book's; the runtime assets' names (of the kinds that run commands) are the asset rules'.
const withAssets =
  <K extends 'CheckConfig' | 'Handler' | 'HookConfig' | 'Mutator'>(type: K) =>
  (resource: SensuGoTypes[K]) =>
    runtimeAssetsProblem(resource) ?? kindProblem(type, resource);

/** The kinds the generic routes serve in each namespace (the RBAC ones are rbac-routes.ts'). */
export const NAMESPACED_RESOURCE_KINDS: ResourceKind[] = [
  resourceKind({ path: 'handlers', type: 'Handler', validate: withAssets('Handler') }),
  resourceKind({ path: 'pipelines', type: 'Pipeline', validate: (p) => kindProblem('Pipeline', p) }),
  resourceKind({ path: 'mutators', type: 'Mutator', validate: withAssets('Mutator') }),
  resourceKind({ path: 'checks', type: 'CheckConfig', validate: withAssets('CheckConfig') }),
  resourceKind({ path: 'hooks', type: 'HookConfig', validate: withAssets('HookConfig') }),
  resourceKind({ path: 'assets', type: 'Asset', validate: assetProblem, nameProblem: assetNameProblem }),
  resourceKind({ path: 'filters', type: 'EventFilter', validate: (f) => kindProblem('EventFilter', f) }),
  resourceKind({
    path: 'entities',
    type: 'Entity',
    validate: (e) => typeProblem('Entity', e) ?? kindProblem('Entity', e),
    deleteProblem: legacyClientOnly,
    afterDelete: deleteEntityEvents,
  }),
  SILENCED,
];

/** Where a kind's resources live, by namespace ('' for a cluster-wide kind). */
interface ResourceTable {
  get(ns: string, name: string): Resource | null;
  put(ns: string, name: string, value: Resource): void;
  delete(ns: string, name: string): boolean;
  list(ns: string): Resource[];
}

/** Entities live with the ones events create (and the legacy clients); every other kind in the generic table. */
function tableOf(deps: V2ApiDeps, kind: ResourceKind): ResourceTable {
  const v2 = deps.store.resources;
  if (kind.type === 'Entity') return entityTable(deps);
  return {
    get: (ns, name) => v2.getResource(kind.type, ns, name),
    put: (ns, name, value) => v2.putResource(kind.type, ns, name, value),
    delete: (ns, name) => v2.deleteResource(kind.type, ns, name),
    list: (ns) => v2.listResources(kind.type, ns),
  };
}

/** Why `name` is not one of the kind's names, or null. */
function nameProblemOf(kind: ResourceKind, name: unknown): string | null {
  return kind.nameProblem ? kind.nameProblem(name) : sensuNameProblem(name);
}

/** Why the body's namespace is not the one written to (a cluster-wide kind's: none), or null; an empty one becomes it. */
function namespaceProblem(kind: ResourceKind, metadata: ObjectMeta, namespace: string): string | null {
  if (kind.clusterWide) return metadata.namespace ? `${kind.path} are cluster-wide: metadata.namespace must be empty` : null;
  metadata.namespace ||= namespace;
  return metadata.namespace === namespace
    ? null
    : `the namespace of the resource (${metadata.namespace}) does not match the namespace of the URI (${namespace})`;
}

/** The kind's write (POST creates, 409 if it exists; PUT creates or replaces), answering through `respond`; namespaced or cluster-wide. */
function writerOf(deps: V2ApiDeps, kind: ResourceKind, table: ResourceTable, serve: (item: Resource) => Resource) {
  return (mode: 'create' | 'upsert', respond = created) =>
    (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as { namespace?: string; name?: string };
      const { name } = params;
      const namespace = kind.clusterWide ? '' : params.namespace!;
      // Decoded as Sensu Go decodes it: unknown fields dropped, a wrongly typed one refused by name.
      const { value: body, problem: undecodable } = decodeAs(kind.type, request.body);
      if (!body) return fail(reply, 'invalid', undecodable);
      const metadata: ObjectMeta = { ...(body.metadata ?? {}) };
      if (name !== undefined) metadata.name ||= name;
      const elsewhere = namespaceProblem(kind, metadata, namespace);
      if (elsewhere) return fail(reply, 'invalid', elsewhere);
      if (name !== undefined && metadata.name !== name)
        return fail(reply, 'invalid', `the name of the resource (${metadata.name}) does not match the name of the URI (${name})`);
      // A silence is then named by what it silences, whatever name the body and URL agreed on, as in Sensu Go.
      if (kind.nameOf) metadata.name = kind.nameOf(body);
      const badName = nameProblemOf(kind, metadata.name);
      if (badName) return fail(reply, 'invalid', badName);
      const problem = kind.validate(body) ?? (SECRET_USERS.has(kind.type) ? secretRefsProblem((body as { secrets?: unknown }).secrets) : null);
      if (problem) return fail(reply, 'invalid', problem);
      // Contents only in namespaces that exist: a missing one could not be listed, deleted or refused at start.
      const missing = kind.clusterWide ? null : missingNamespace(deps.store.resources, namespace);
      if (missing) return fail(reply, 'notFound', missing);
      const refused = kind.grantProblem?.(deps, callerOf(request), kind.clusterWide ? null : namespace, body);
      if (refused) return fail(reply, 'forbidden', refused);
      // The name rule let only a string through.
      const named = String(metadata.name);
      const existing = table.get(namespace, named);
      if (mode === 'create' && existing) return fail(reply, 'exists', 'resource already exists');
      const managed = kind.type === 'Entity' && mode === 'upsert' ? agentManaged(body, existing) : null;
      if (managed) return fail(reply, 'exists', managed);
      const refusal = kind.type === 'Entity' && !existing ? deps.entityGate?.() : null;
      if (refusal) return fail(reply, 'unlicensed', refusal);
      metadata.created_by = callerOf(request).username;
      const stored = kind.prepare ? kind.prepare(body, nowS(deps), callerOf(request).username) : body;
      if (stored) table.put(namespace, named, { ...stored, metadata: shapeMetadata(metadata) });
      kind.afterWrite?.(deps, namespace, named, !existing);
      if (kind.type !== 'Entity') return respond(reply, namespace, named);
      deps.onEntityWritten?.(namespace, named);
      // Sensu Go answers an entity write with 200 and the entity.
      return reply.code(200).send(serve(table.get(namespace, named)!));
    };
}

const nameKey = (r: Resource) => String(r.metadata?.name ?? '');

/**
 * A kind's CRUD: POST creates (409 if it exists), PUT creates or replaces, PATCH merges, GET lists (selectors, pages)
 * or reads one, DELETE removes one; in each namespace, or cluster-wide (no namespace in metadata) for such a kind.
 */
export function registerResourceRoutes(app: FastifyInstance, deps: V2ApiDeps, kind: ResourceKind): ResourceWriter {
  const table = tableOf(deps, kind);
  // An entity is served with the labels and annotations its redact list names hidden, as Sensu Go marshals one.
  const serve = (item: Resource) => serveAs(kind.type, kind.type === 'Entity' ? { ...item, metadata: redactedMetadata(item) } : item);
  const namespaceOf = (request: FastifyRequest) => (kind.clusterWide ? '' : (request.params as { namespace: string }).namespace);
  const base = kind.clusterWide ? `/api/core/v2/${kind.path}` : `/api/core/v2/namespaces/:namespace/${kind.path}`;
  const write = writerOf(deps, kind, table, serve);
  const fields = (kind.clusterWide ? RBAC_FIELDS : RESOURCE_FIELDS).get(kind.path)!;
  // Served with every field of the type, as Sensu Go writes it.
  const served = (items: Resource[]) => items.map(serve);
  app.get(base, (request, reply) => listResponse(request, reply, served(table.list(namespaceOf(request))), fields, nameKey));
  // Every namespace at once (`sensuctl … list --all-namespaces`, `dump --all-namespaces`): cluster-wide access, as in Sensu Go.
  if (!kind.clusterWide)
    app.get(`/api/core/v2/${kind.path}`, (request, reply) => {
      const all = served(deps.store.resources.listResources('Namespace', '').flatMap((n) => table.list(String(n.name))));
      return listResponse(request, reply, all, fields, (r) => `${String(r.metadata?.namespace ?? '')}/${nameKey(r)}`);
    });
  const stored = (request: FastifyRequest) => table.get(namespaceOf(request), (request.params as { name: string }).name);
  app.get(`${base}/:name`, (request, reply) => {
    const found = stored(request);
    return found ? serve(found) : fail(reply, 'notFound', 'not found');
  });
  app.post(base, write('create'));
  app.put(`${base}/:name`, write('upsert'));
  app.delete(`${base}/:name`, async (request, reply) => {
    const namespace = namespaceOf(request);
    const { name } = request.params as { name: string };
    const inUse = kind.deleteProblem && table.get(namespace, name) ? kind.deleteProblem(deps, namespace, name) : null;
    if (inUse) return fail(reply, 'conflict', inUse);
    if (!table.delete(namespace, name)) return fail(reply, 'notFound', 'not found');
    await kind.afterDelete?.(deps, namespace, name);
    return reply.code(204).send();
  });
  // Sensu Go has no PATCH for silences.
  if (kind.type !== 'Silenced')
    app.patch(
      `${base}/:name`,
      mergePatchRoute(
        stored,
        write('upsert', (reply, ns, name) => reply.code(200).send(serve(table.get(ns, name)!))),
      ),
    );
  return { get: table.get, put: (respond) => write('upsert', respond) };
}
