import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, nowS, type V2ApiDeps, type Caller } from './context.js';
import { listResponse } from './listing.js';
import { entityTable, legacyClientOnly, deleteEntityEvents, agentManaged } from './entity-view.js';
import { SILENCED } from './silenced.js';
import { RESOURCE_FIELDS, decodeAs, redactedMetadata, serveAs, shapeMetadata, typeProblem } from '../../v2/index.js';
import { assetNameProblem, kindProblem, sensuNameProblem } from '../../rules/index.js';
import { assetProblem, runtimeAssetsProblem } from '../../assets/index.js';
import { SECRET_USERS } from '../../secrets/index.js';
import { secretRefsProblem } from '../../config/index.js';
import { mergePatchRoute } from './merge-patch.js';
import { created, type ResourceWriter } from './resource-writer.js';
import type { Json } from '../../json.js';

export interface ResourceKind {
  /** URL segment, e.g. `handlers`. */
  readonly path: string;
  /** Stored kind and wrapped `type`, e.g. `Handler`. */
  readonly type: string;
  /** The first reason a resource is invalid, or null. */
  readonly validate: (resource: Json) => string | null;
  /** For kinds that grant permissions: why the caller may not write this one (403), or null. */
  readonly grantProblem?: (deps: V2ApiDeps, caller: Caller, namespace: string | null, resource: Json) => string | null;
  /** Why a name is not one of this kind's, when not Sensu Go's name rule (Asset: `/` allowed; Silenced: `*`), or null. */
  readonly nameProblem?: (name: unknown) => string | null;
  /** The name the kind gives every body, whatever it says (Silenced: `subscription:check`), or undefined. */
  readonly nameOf?: (resource: Json) => string;
  /** The resource as stored, completed from what the client sent (Silenced: begin, expire_at and its creator); null: nothing to store. */
  readonly prepare?: (resource: Json, nowS: number, username: string) => Json | null;
  /** Why this one may not be deleted now (409: others depend on it), or null. */
  readonly deleteProblem?: (deps: V2ApiDeps, namespace: string | null, name: string) => string | null;
  /** What follows a write (Role: a new generation when it is new; binding: the role generation it applies to). */
  readonly afterWrite?: (deps: V2ApiDeps, namespace: string, name: string, created: boolean) => void;
  /** What goes with a deleted one (Entity: its events). */
  readonly afterDelete?: (deps: V2ApiDeps, namespace: string, name: string) => Promise<void> | void;
}

/**
 * Why nothing may be written into `namespace`: it does not exist; null when it exists. The message is Sensu Go's
 * store's (`ErrNamespaceMissing`); its apid lets that error through as a 500, the v2 API answers 404 (nothing failed).
 */
export function missingNamespace(v2: V2ApiDeps['store']['resources'], namespace: string): string | null {
  return v2.namespaceExists(namespace) ? null : `the namespace ${namespace} does not exist`;
}

// Each kind's validation is the rule book's; the runtime assets' names are the asset rules'.
const withAssets = (type: string) => (resource: Json) => runtimeAssetsProblem(resource) ?? kindProblem(type, resource);

export const KINDS: ResourceKind[] = [
  { path: 'handlers', type: 'Handler', validate: withAssets('Handler') },
  { path: 'pipelines', type: 'Pipeline', validate: (p) => kindProblem('Pipeline', p) },
  { path: 'mutators', type: 'Mutator', validate: withAssets('Mutator') },
  { path: 'checks', type: 'CheckConfig', validate: withAssets('CheckConfig') },
  { path: 'hooks', type: 'HookConfig', validate: withAssets('HookConfig') },
  { path: 'assets', type: 'Asset', validate: assetProblem, nameProblem: assetNameProblem },
  { path: 'filters', type: 'EventFilter', validate: (f) => kindProblem('EventFilter', f) },
  {
    path: 'entities',
    type: 'Entity',
    validate: (e) => typeProblem('Entity', e) ?? kindProblem('Entity', e),
    deleteProblem: legacyClientOnly,
    afterDelete: deleteEntityEvents,
  },
  SILENCED,
];

/** Entities live with the ones events create (and the legacy clients); every other kind in the generic table. */
function tableOf(deps: V2ApiDeps, kind: ResourceKind) {
  const v2 = deps.store.resources;
  if (kind.type === 'Entity') return entityTable(deps);
  return {
    get: (ns: string, name: string) => v2.getResource(kind.type, ns, name),
    put: (ns: string, name: string, value: Json) => v2.putResource(kind.type, ns, name, value),
    delete: (ns: string, name: string) => v2.deleteResource(kind.type, ns, name),
    list: (ns: string) => v2.listResources(kind.type, ns),
  };
}

/** Why `name` is not one of the kind's names, or null. */
function nameProblemOf(kind: ResourceKind, name: unknown): string | null {
  return kind.nameProblem ? kind.nameProblem(name) : sensuNameProblem(name);
}

/** The kind's write (POST creates, 409 if it exists; PUT creates or replaces), answering through `respond`. */
function writerOf(deps: V2ApiDeps, kind: ResourceKind, table: ReturnType<typeof tableOf>, serve: (item: Json) => Json) {
  return (mode: 'create' | 'upsert', respond = created) =>
    (request: FastifyRequest, reply: FastifyReply) => {
      const { namespace, name } = request.params as { namespace: string; name?: string };
      // Decoded as Sensu Go decodes it: unknown fields dropped, a wrongly typed one refused by name.
      const { value: body, problem: undecodable } = decodeAs(kind.type, request.body);
      if (!body) return fail(reply, 'invalid', undecodable);
      const metadata = { ...(body.metadata ?? {}) };
      metadata.namespace ||= namespace;
      if (name !== undefined) metadata.name ||= name;
      if (metadata.namespace !== namespace)
        return fail(reply, 'invalid', `the namespace of the resource (${metadata.namespace}) does not match the namespace of the URI (${namespace})`);
      if (name !== undefined && metadata.name !== name)
        return fail(reply, 'invalid', `the name of the resource (${metadata.name}) does not match the name of the URI (${name})`);
      // A silence is then named by what it silences, whatever name the body and URL agreed on, as in Sensu Go.
      if (kind.nameOf) metadata.name = kind.nameOf(body);
      const badName = nameProblemOf(kind, metadata.name);
      if (badName) return fail(reply, 'invalid', badName);
      const problem = kind.validate(body) ?? (SECRET_USERS.has(kind.type) ? secretRefsProblem(body.secrets) : null);
      if (problem) return fail(reply, 'invalid', problem);
      // Contents only in namespaces that exist: a missing one could not be listed, deleted or refused at start.
      const missing = missingNamespace(deps.store.resources, namespace);
      if (missing) return fail(reply, 'notFound', missing);
      const refused = kind.grantProblem?.(deps, callerOf(request), namespace, body);
      if (refused) return fail(reply, 'forbidden', refused);
      const existing = table.get(namespace, metadata.name);
      if (mode === 'create' && existing) return fail(reply, 'exists', 'resource already exists');
      const managed = kind.type === 'Entity' && mode === 'upsert' ? agentManaged(body, existing) : null;
      if (managed) return fail(reply, 'exists', managed);
      const refusal = kind.type === 'Entity' && !existing ? deps.entityGate?.() : null;
      if (refusal) return fail(reply, 'unlicensed', refusal);
      metadata.created_by = callerOf(request).username;
      const stored = kind.prepare ? kind.prepare(body, nowS(deps), callerOf(request).username) : body;
      if (stored) table.put(namespace, String(metadata.name), { ...stored, metadata: shapeMetadata(metadata) });
      kind.afterWrite?.(deps, namespace, String(metadata.name), !existing);
      if (kind.type !== 'Entity') return respond(reply, namespace, String(metadata.name));
      deps.onEntityWritten?.(namespace, String(metadata.name));
      // Sensu Go answers an entity write with 200 and the entity.
      return reply.code(200).send(serve(table.get(namespace, String(metadata.name))!));
    };
}

/** Generic namespaced CRUD: POST creates (409 if it exists), PUT creates or replaces. */
export function registerResourceRoutes(app: FastifyInstance, deps: V2ApiDeps, kind: ResourceKind): ResourceWriter {
  const table = tableOf(deps, kind);
  // An entity is served with the labels and annotations its redact list names hidden, as Sensu Go marshals one.
  const serve = (item: Json) => serveAs(kind.type, kind.type === 'Entity' ? { ...item, metadata: redactedMetadata(item) } : item);
  const base = `/api/core/v2/namespaces/:namespace/${kind.path}`;
  const write = writerOf(deps, kind, table, serve);
  const fields = RESOURCE_FIELDS.get(kind.path)!;
  // Served with every field of the type, as Sensu Go writes it.
  const served = (items: Json[]) => items.map(serve);
  app.get(base, (request, reply) =>
    listResponse(request, reply, served(table.list((request.params as { namespace: string }).namespace) as Json[]), fields, (r) =>
      String(r.metadata?.name ?? ''),
    ),
  );
  // Every namespace at once (`sensuctl … list --all-namespaces`, `dump --all-namespaces`): cluster-wide access, as in Sensu Go.
  app.get(`/api/core/v2/${kind.path}`, (request, reply) => {
    const all = served(deps.store.resources.listResources('Namespace', '').flatMap((n) => table.list(String(n.name))) as Json[]);
    return listResponse(request, reply, all, fields, (r) => `${String(r.metadata?.namespace ?? '')}/${String(r.metadata?.name ?? '')}`);
  });
  app.get(`${base}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    const found = table.get(namespace, name);
    return found ? serve(found) : fail(reply, 'notFound', 'not found');
  });
  app.post(base, write('create'));
  app.put(`${base}/:name`, write('upsert'));
  app.delete(`${base}/:name`, async (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    const inUse = table.get(namespace, name) ? kind.deleteProblem?.(deps, namespace, name) : null;
    if (inUse) return fail(reply, 'conflict', inUse);
    if (!table.delete(namespace, name)) return fail(reply, 'notFound', 'not found');
    await kind.afterDelete?.(deps, namespace, name);
    return reply.code(204).send();
  });
  const stored = (request: FastifyRequest) => table.get((request.params as { namespace: string }).namespace, (request.params as { name: string }).name);
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
