import type { FastifyReply, FastifyRequest } from 'fastify';
import { schemaProblems } from '../../config/index.js';
import { entityRefusal } from '../../intake/index.js';
import { removeClient } from '../../intake/index.js';
import { clientNameProblem } from '../../rules/index.js';
import { LEGACY_VERSION } from '../../legacy-version.js';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { sendList, legacyQuery, refuse, issued } from './http.js';
import { agentHistoryOf, resolveAgentEvent, sortHistory } from './agent-events.js';
import type { LegacyViews } from './views.js';

/** The client registry: list, read, register, a client's check history, and deletion (optionally invalidating). */
export function registerClientRoutes(route: AddRoute, deps: LegacyApiDeps, views: LegacyViews): void {
  const { agents, visible, hidden } = views;
  route('GET', '/clients', (req, reply) =>
    sendList(
      req,
      reply,
      deps.store.listClients().filter((c) => visible(c)),
    ),
  );
  route('GET', '/clients/:client', (req, reply) => {
    const client = visible(deps.store.getClient((req.params as { client: string }).client));
    return client ?? reply.code(404).send();
  });
  route('POST', '/clients', (req, reply) => postClient(deps, views, req, reply));
  route('GET', '/clients/:client/history', async (req) => {
    const name = (req.params as { client: string }).client;
    if (hidden(name)) return [];
    const legacy = deps.store
      .listResults(name)
      .filter((r) => r.history.length > 0 && r.check.executed !== undefined)
      .map((r) => ({
        check: r.check.name,
        history: r.history.map((h) => h.status),
        last_execution: r.check.executed,
        last_status: r.history.at(-1)!.status,
        last_result: r.check,
      }));
    // An agent's own checks: one history each, its v2 event's.
    const own = (await agents.checks(name)).map(agentHistoryOf);
    return own.length === 0 ? legacy : sortHistory([...legacy, ...own]);
  });
  route('DELETE', '/clients/:client', async (req, reply) => {
    const name = (req.params as { client: string }).client;
    if (!visible(deps.store.getClient(name))) return reply.code(404).send();
    const query = legacyQuery(req.url);
    const expire = /^[0-9]+$/.test(query.invalidate_expire ?? '') ? Math.floor(deps.clock.now() / 1000) + Number(query.invalidate_expire) : null;
    // As its legacy events, an agent's open check events are resolved (and handled) before its record goes.
    const open = await agents.open(name);
    void Promise.allSettled(open.map((found) => resolveAgentEvent(deps.intake, deps.store, found, deps.clock.now())))
      .then(() => removeClient(deps.store, deps.intake, name, deps.clock.now(), 'invalidate' in query ? { until: expire } : undefined))
      .catch((error) => deps.logger.error({ err: error, client: name }, 'failed to delete client'));
    return reply.code(202).send(issued(deps.clock));
  });
}

/** POST /clients: a legacy client, registered through the API under the same name and entity rules as every door. */
function postClient(deps: LegacyApiDeps, views: LegacyViews, req: FastifyRequest, reply: FastifyReply) {
  const body = req.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return reply.code(400).send();
  const client: Record<string, unknown> = {
    keepalives: false,
    ...body,
    subscriptions: body.subscriptions ?? [],
    version: LEGACY_VERSION,
    timestamp: Math.floor(deps.clock.now() / 1000),
  };
  if (schemaProblems('client', client).length > 0) return reply.code(400).send();
  if (views.agentRecord(client.name))
    return reply
      .code(409)
      .header('X-Checkbridge-Error', `${String(client.name)} is a Sensu Go agent's client record: only its agent updates it`)
      .send();
  // The schema says nothing of length; every door holds names to the same rule.
  const badName = clientNameProblem(client.name);
  if (badName) return refuse(reply, badName);
  // An agent's record names the namespace its events are read from: only the agent WebSocket writes one.
  if (client.entity_class === 'agent') return refuse(reply, 'entity_class agent is for Sensu Go agents, which register over the agent WebSocket');
  client.subscriptions = [...new Set([...(client.subscriptions as string[]), `client:${String(client.name)}`])];
  // A new client is a new entity: refused at the entity limit as every other door refuses one.
  const settings = deps.settings();
  const refusal = views.visible(deps.store.getClient(String(client.name))) ? null : entityRefusal(deps.store, settings, String(client.name));
  if (refusal) return reply.code(402).send({ error: refusal });
  deps.store.putClient(client);
  return reply.code(201).send({ name: client.name });
}
