import type { FastifyReply } from 'fastify';
import { resolveEvent } from '../../intake/index.js';
import { legacyEventOf } from '../../v2/index.js';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { sendList, refuse, issued } from './http.js';
import { resolveAgentEvent } from './agent-events.js';
import type { LegacyViews } from './views.js';

/**
 * Events: the legacy store's, and the open check events of Sensu Go agents (a view over their v2 events); resolving
 * one (DELETE, POST /resolve), and /incidents, the old name of the list.
 */
export function registerEventRoutes(route: AddRoute, deps: LegacyApiDeps, views: LegacyViews): void {
  const { scope, agents, hidden } = views;
  // A legacy event resolves as a legacy result; an agent's open event as an OK v2 event of its check.
  const resolve = async (reply: FastifyReply, client: string, check: string) => {
    if (hidden(client)) return reply.code(404).send();
    const event = deps.store.getEvent(client, check);
    if (event) await resolveEvent(deps.intake, event, deps.clock.now());
    else {
      const found = await agents.openEvent(client, check);
      if (!found) return reply.code(404).send();
      const refused = await resolveAgentEvent(deps.intake, deps.store, found, deps.clock.now());
      if (refused) return refuse(reply, refused);
    }
    return reply.code(202).send(issued(deps.clock));
  };
  route('DELETE', '/events/:client/:check', (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    return resolve(reply, client, check);
  });
  route('POST', '/resolve', (req, reply) => {
    const body = req.body as { client?: unknown; check?: unknown } | null;
    if (!body || typeof body.client !== 'string' || typeof body.check !== 'string') return reply.code(400).send();
    return resolve(reply, body.client, body.check);
  });
  const allEvents = async () => agents.withLegacy(scope().filter(deps.store.listEvents(), (e) => (e.client as { name?: unknown } | undefined)?.name));
  route('GET', '/events', async (req, reply) => sendList(req, reply, await allEvents()));
  route('GET', '/incidents', async (req, reply) => sendList(req, reply, await allEvents()));
  route('GET', '/events/:client', async (req, reply) => {
    const client = (req.params as { client: string }).client;
    return sendList(req, reply, hidden(client) ? [] : await agents.withLegacy(deps.store.listEvents(client), client));
  });
  // Added after DELETE: a 405's Allow lists this path's methods in the order they were added (DELETE, GET, HEAD).
  route('GET', '/events/:client/:check', async (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    if (hidden(client)) return reply.code(404).send();
    const legacy = deps.store.getEvent(client, check);
    if (legacy) return legacy;
    const found = await agents.openEvent(client, check);
    return found ? legacyEventOf(found.event, found.client) : reply.code(404).send();
  });
}
