import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, NAME, nowS, eventStoreOf, type V2ApiDeps, type Caller } from './context.js';
import { listResponse } from './listing.js';
import { entityTable, legacyClientOnly } from './entity-view.js';
import { RESOURCE_FIELDS, NAMESPACE_FIELDS, decodeAs, redactedMetadata, serveAs, shapeMetadata, typeProblem } from '../../v2/index.js';
import { checkRulesProblem, filterProblem, hookProblem, mutatorProblem, pipelineProblem } from './kind-rules.js';
import { assetProblem, runtimeAssetsProblem } from '../../assets/index.js';
import { SECRET_USERS } from '../../secrets/index.js';
import { secretRefsProblem } from '../../config/index.js';
import { goCronProblem } from '../../time/index.js';
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
  /** What names this kind takes, when not NAME (Silenced: `*` stands for any subscription or check). */
  readonly namePattern?: RegExp;
  /** The name a body without one gets (Silenced: `subscription:check`), or undefined. */
  readonly nameOf?: (resource: Json) => string;
  /** The resource as stored, completed from what the client sent (Silenced: begin, expire_at and its creator). */
  readonly prepare?: (resource: Json, nowS: number, username: string) => Json;
  /** Why this one may not be deleted now (409: others depend on it), or null. */
  readonly deleteProblem?: (deps: V2ApiDeps, namespace: string | null, name: string) => string | null;
}

const DEFAULT_NAMESPACE = 'default';

/**
 * Why nothing may be written into `namespace`: it does not exist; null when it exists. The message is Sensu Go's
 * store's (`ErrNamespaceMissing`); its apid lets that error through as a 500, the v2 API answers 404 (nothing failed).
 */
export function missingNamespace(v2: V2ApiDeps['store']['resources'], namespace: string): string | null {
  return v2.getResource('Namespace', '', namespace) ? null : `the namespace ${namespace} does not exist`;
}

const HANDLER_TYPES = ['pipe', 'tcp', 'udp', 'set', 'grpc'];

export const KINDS: ResourceKind[] = [
  {
    path: 'handlers',
    type: 'Handler',
    validate: (h) =>
      runtimeAssetsProblem(h) ??
      (!HANDLER_TYPES.includes(h.type)
        ? `handler type must be one of ${HANDLER_TYPES.join(', ')}`
        : h.type === 'pipe' && typeof h.command !== 'string'
          ? 'missing command'
          : (h.type === 'tcp' || h.type === 'udp') && !(h.socket?.host && Number.isInteger(h.socket?.port))
            ? 'missing socket host or port'
            : h.timeout !== undefined && !(Number.isInteger(h.timeout) && h.timeout >= 0)
              ? 'timeout must be a non-negative integer'
              : null),
  },
  {
    path: 'pipelines',
    type: 'Pipeline',
    validate: pipelineProblem,
  },
  {
    path: 'mutators',
    type: 'Mutator',
    validate: (m) => runtimeAssetsProblem(m) ?? mutatorProblem(m),
  },
  {
    path: 'checks',
    type: 'CheckConfig',
    validate: (c) =>
      runtimeAssetsProblem(c) ??
      (typeof c.command !== 'string' || c.command === ''
        ? 'missing command'
        : (cronIntervalProblem(c) ??
          (c.subscriptions !== undefined &&
          c.subscriptions !== null &&
          (!Array.isArray(c.subscriptions) || c.subscriptions.some((s: unknown) => typeof s !== 'string' || s === ''))
            ? 'subscriptions must be non-empty strings'
            : Number(c.ttl) > 0 && Number(c.ttl) <= Number(c.interval ?? 0)
              ? 'ttl must be greater than check interval'
              : // Sensu Go's event validation refuses a ttl under 5 s: every result of such a check would be lost.
                Number(c.ttl) > 0 && Number(c.ttl) < 5
                ? 'minimum ttl is 5 seconds'
                : checkRulesProblem(c)))),
  },
  {
    path: 'hooks',
    type: 'HookConfig',
    validate: (h) => runtimeAssetsProblem(h) ?? hookProblem(h),
  },
  { path: 'assets', type: 'Asset', validate: assetProblem },
  {
    path: 'filters',
    type: 'EventFilter',
    validate: filterProblem,
  },
  {
    path: 'entities',
    type: 'Entity',
    validate: (e) => typeProblem('Entity', e) ?? (typeof e.entity_class !== 'string' || e.entity_class === '' ? 'entity_class must be set' : null),
    deleteProblem: legacyClientOnly,
  },
  {
    path: 'silenced',
    type: 'Silenced',
    validate: (s) =>
      !s.subscription && !s.check
        ? 'a silence needs a subscription or a check'
        : s.expire !== undefined && !Number.isInteger(s.expire)
          ? 'expire must be an integer (seconds; 0 or less: no expiration)'
          : s.begin !== undefined && !Number.isInteger(s.begin)
            ? 'begin must be an integer (Unix seconds)'
            : null,
    namePattern: /^[\w.\-:*]{1,255}$/,
    nameOf: (s) => silencedName(s.subscription, s.check),
    prepare: prepareSilenced,
  },
];

/**
 * Sensu Go's CheckConfig.Validate on the schedule, which the agent applies again to every request it receives: one
 * of a cron (in robfig's standard syntax) or an interval of at least 1 s, even for a check that only runs ad hoc.
 */
function cronIntervalProblem(c: Json): string | null {
  if (c.cron) {
    if (Number(c.interval) > 0) return 'must only specify either an interval or a cron schedule';
    const problem = goCronProblem(String(c.cron));
    return problem ? `check cron string is invalid: ${problem}` : null;
  }
  return Number.isInteger(c.interval) && c.interval >= 1 ? null : 'check interval must be greater than 0 or a valid cron schedule must be provided';
}

/** Sensu Go's name of a silenced entry: `subscription:check`, `*` for the part not given. */
const silencedName = (subscription: unknown, check: unknown) => `${subscription || '*'}:${check || '*'}`;

/** As Sensu Go stores a silenced entry: begin defaults to now; expire (seconds from begin) becomes expire_at; the writer is its creator. */
function prepareSilenced(s: Json, now: number, username: string): Json {
  const begin = Number(s.begin) > 0 ? Number(s.begin) : now;
  const expireAt = Number(s.expire_at) > 0 ? Number(s.expire_at) : Number(s.expire) > 0 ? begin + Number(s.expire) : 0;
  return { ...s, begin, expire_at: expireAt, creator: username };
}

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

/** Generic namespaced CRUD: POST creates (409 if it exists), PUT creates or replaces. */
export function registerResourceRoutes(app: FastifyInstance, deps: V2ApiDeps, kind: ResourceKind): void {
  const table = tableOf(deps, kind);
  // An entity is served with the labels and annotations its redact list names hidden, as Sensu Go marshals one.
  const serve = (item: Json) => serveAs(kind.type, kind.type === 'Entity' ? { ...item, metadata: redactedMetadata(item) } : item);
  const base = `/api/core/v2/namespaces/:namespace/${kind.path}`;
  const write = (mode: 'create' | 'upsert') => (request: FastifyRequest, reply: FastifyReply) => {
    const { namespace, name } = request.params as { namespace: string; name?: string };
    // Decoded as Sensu Go decodes it: unknown fields dropped, a wrongly typed one refused by name.
    const { value: body, problem: undecodable } = decodeAs(kind.type, request.body);
    if (!body) return fail(reply, 'invalid', undecodable);
    const metadata = { ...(body.metadata ?? {}) };
    metadata.namespace ||= namespace;
    if (name !== undefined) metadata.name ||= name;
    // sensuctl's `silenced create` sends no name: the kind names it, as Sensu Go does.
    if (!metadata.name && kind.nameOf) metadata.name = kind.nameOf(body);
    if (metadata.namespace !== namespace)
      return fail(reply, 'invalid', `the namespace of the resource (${metadata.namespace}) does not match the namespace of the URI (${namespace})`);
    if (name !== undefined && metadata.name !== name)
      return fail(reply, 'invalid', `the name of the resource (${metadata.name}) does not match the name of the URI (${name})`);
    if (!metadata.name || !(kind.namePattern ?? NAME).test(String(metadata.name)))
      return fail(reply, 'invalid', `name must be 1 to 255 letters, digits, _ . - :${kind.namePattern ? ' *' : ''}`);
    const problem = kind.validate(body) ?? (SECRET_USERS.has(kind.type) ? secretRefsProblem(body.secrets) : null);
    if (problem) return fail(reply, 'invalid', problem);
    // Contents only in namespaces that exist: a missing one could not be listed, deleted or refused at start.
    const missing = missingNamespace(deps.store.resources, namespace);
    if (missing) return fail(reply, 'notFound', missing);
    const refused = kind.grantProblem?.(deps, callerOf(request), namespace, body);
    if (refused) return fail(reply, 'forbidden', refused);
    const existing = table.get(namespace, metadata.name);
    if (mode === 'create' && existing) return fail(reply, 'exists', 'resource already exists');
    const refusal = kind.type === 'Entity' && !existing ? deps.entityGate?.() : null;
    if (refusal) return fail(reply, 'unlicensed', refusal);
    metadata.created_by = callerOf(request).username;
    const stored = kind.prepare ? kind.prepare(body, nowS(deps), callerOf(request).username) : body;
    table.put(namespace, String(metadata.name), { ...stored, metadata: shapeMetadata(metadata) });
    if (kind.type === 'Entity') deps.onEntityWritten?.(namespace, String(metadata.name));
    return reply.code(201).type('application/json').send();
  };
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
  app.delete(`${base}/:name`, (request, reply) => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    const inUse = table.get(namespace, name) ? kind.deleteProblem?.(deps, namespace, name) : null;
    if (inUse) return fail(reply, 'conflict', inUse);
    return table.delete(namespace, name) ? reply.code(204).send() : fail(reply, 'notFound', 'not found');
  });
}

/** Namespaces (cluster-wide): PUT creates or keeps, GET lists, DELETE refuses while anything lives in it. */
export function registerNamespaceRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.resources;
  // The default namespace exists from the first start: every legacy event lives there.
  if (!v2.getResource('Namespace', '', DEFAULT_NAMESPACE)) v2.putResource('Namespace', '', DEFAULT_NAMESPACE, { name: DEFAULT_NAMESPACE });
  app.get('/api/core/v2/namespaces', (request, reply) =>
    listResponse(
      request,
      reply,
      v2.listResources('Namespace', '').map((n) => ({ name: n.name })),
      NAMESPACE_FIELDS,
      (n) => String(n.name),
    ),
  );
  app.get('/api/core/v2/namespaces/:name', (request, reply) => {
    const found = v2.getResource('Namespace', '', (request.params as { name: string }).name);
    return found ? { name: found.name } : fail(reply, 'notFound', 'not found');
  });
  app.put('/api/core/v2/namespaces/:name', (request, reply) => {
    const name = (request.params as { name: string }).name;
    const body = (request.body ?? {}) as Json;
    if (body.name !== undefined && body.name !== name)
      return fail(reply, 'invalid', `the name of the resource (${String(body.name)}) does not match the name of the URI (${name})`);
    if (!NAME.test(name)) return fail(reply, 'invalid', 'name must be 1 to 255 letters, digits, _ . - :');
    v2.putResource('Namespace', '', name, { name });
    return reply.code(201).type('application/json').send();
  });
  // `sensuctl namespace create NAME`: `{"name": NAME}`, 409 when it exists.
  app.post('/api/core/v2/namespaces', (request, reply) => {
    const body = request.body as Json | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(reply, 'invalid', 'request body must be a JSON object: {"name": <namespace>}');
    const name = body.name ?? body.metadata?.name;
    if (typeof name !== 'string' || !NAME.test(name)) return fail(reply, 'invalid', 'name must be 1 to 255 letters, digits, _ . - :');
    if (v2.getResource('Namespace', '', name)) return fail(reply, 'exists', 'resource already exists');
    v2.putResource('Namespace', '', name, { name });
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
