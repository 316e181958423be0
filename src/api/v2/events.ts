import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, eventStoreOf, type V2ApiDeps } from './context.js';
import { selectorsOf, page } from './listing.js';
import { shapeEvent, EVENT_FIELDS, decodeEvent, type Event } from '../../v2/index.js';
import { missingNamespace } from './resources.js';
import { IntakeFull } from '../../intake/index.js';
type Params = { namespace: string; entity?: string; check?: string };

// Paging order and resume key: namespace, entity, check (Sensu Go's etcd key order).
const eventKey = (e: Event) =>
  `${e.metadata?.namespace ?? e.entity?.metadata?.namespace ?? ''}/${e.entity?.metadata?.name ?? ''}/${e.check?.metadata?.name ?? ''}`;

/** The events API: list, get, create or replace (201, empty), delete (204). */
export function registerEventRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const events = eventStoreOf(deps);
  // Selectors go to the event store: PostgreSQL answers them in the database, SQLite in memory.
  const list = async (request: FastifyRequest, reply: FastifyReply, namespace: string | null, entity?: string) => {
    const selectors = selectorsOf(request, reply, EVENT_FIELDS);
    if (!selectors) return reply;
    return page(request, reply, await events.list({ namespace, entity, ...selectors }), eventKey).map(shapeEvent);
  };
  app.get('/api/core/v2/events', (request, reply) => list(request, reply, null));
  app.get('/api/core/v2/namespaces/:namespace/events', (request, reply) => list(request, reply, (request.params as Params).namespace));
  app.get('/api/core/v2/namespaces/:namespace/events/:entity', (request, reply) => {
    const { namespace, entity } = request.params as Params;
    return list(request, reply, namespace, entity);
  });
  app.get('/api/core/v2/namespaces/:namespace/events/:entity/:check', async (request, reply) => {
    const { namespace, entity, check } = request.params as Params;
    const event = await events.get(namespace, entity!, check!);
    return event ? shapeEvent(event) : fail(reply, 'notFound', 'not found');
  });
  app.delete('/api/core/v2/namespaces/:namespace/events/:entity/:check', async (request, reply) => {
    const { namespace, entity, check } = request.params as Params;
    return (await events.delete(namespace, entity!, check!)) ? reply.code(204).send() : fail(reply, 'notFound', 'not found');
  });

  const write = async (request: FastifyRequest, reply: FastifyReply) => {
    const { namespace, entity, check } = request.params as Params;
    // Decoded as Sensu Go decodes an Event, once (types first: the checks below read its metadata as objects).
    const { value: body, problem } = decodeEvent(request.body);
    if (!body) return fail(reply, 'invalid', problem);
    // Events (and the entities they create) only in namespaces that exist.
    const missing = missingNamespace(deps.store.resources, namespace);
    if (missing) return fail(reply, 'notFound', missing);
    // The URL names what the body may leave out; a body that says otherwise is refused.
    for (const [part, urlName] of [
      ['entity', entity],
      ['check', check],
    ] as const) {
      const value = body[part];
      if (!value || typeof value !== 'object') continue;
      value.metadata ??= {};
      if (value.metadata.namespace && value.metadata.namespace !== namespace) {
        return fail(reply, 'invalid', `the namespace of the resource (${value.metadata.namespace}) does not match the namespace of the URI (${namespace})`);
      }
      if (urlName !== undefined) {
        value.metadata.name ||= urlName;
        if (value.metadata.name !== urlName)
          return fail(reply, 'invalid', `the name of the resource (${value.metadata.name}) does not match the name of the URI (${urlName})`);
      }
    }
    // The one intake stores it (in its group commit, or on PostgreSQL) and sends it on to its pipelines; while the
    // store is behind, nothing more is taken (503, come back).
    if (deps.intake.backlog.full) throw new IntakeFull();
    const outcome = await deps.intake.submitEvent(namespace, body, callerOf(request)?.username);
    if (!outcome.ok) return fail(reply, outcome.limited ? 'unlicensed' : 'invalid', outcome.message);
    return reply.code(201).type('application/json').send();
  };
  app.post('/api/core/v2/namespaces/:namespace/events', write);
  app.post('/api/core/v2/namespaces/:namespace/events/:entity/:check', write);
  app.put('/api/core/v2/namespaces/:namespace/events/:entity/:check', write);
}
