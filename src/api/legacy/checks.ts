import { definitionOf } from '../../config/index.js';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { sendList, issued } from './http.js';
import { legacyScope } from './scope.js';

/** Check definitions (standalone ones are the clients' own, not listed), their results' deletion, and requests to run one now. */
export function registerCheckRoutes(route: AddRoute, deps: LegacyApiDeps): void {
  route('GET', '/checks', (req, reply) => {
    const settings = deps.settings();
    return sendList(
      req,
      reply,
      Object.values(settings.checks)
        .filter((c) => !c.standalone)
        .map((c) => definitionOf(settings, c.name)),
    );
  });
  route('GET', '/checks/:check', (req, reply) => {
    const settings = deps.settings();
    const name = (req.params as { check: string }).check;
    const check = settings.checks[name];
    return check && !check.standalone ? definitionOf(settings, name) : reply.code(404).send();
  });
  route('DELETE', '/checks/:check', (req, reply) => {
    const check = (req.params as { check: string }).check;
    const scope = legacyScope(deps.store, deps.settings());
    const clients = deps.store.listClients();
    // The results of agents the caller does not see are left alone (an agent's keepalive is such a result).
    if (clients.every((client) => scope.shows(client))) deps.store.deleteResultsOfCheck(check);
    else for (const client of clients.filter((c) => scope.shows(c))) deps.store.deleteResult(String(client.name), check);
    return reply.code(202).send(issued(deps.clock));
  });
  // Publishes a check request now, to the check's subscribers or the ones named.
  route('POST', '/request', (req, reply) => {
    const body = req.body as { check?: unknown; subscribers?: unknown; reason?: unknown; creator?: unknown } | null;
    if (!body || typeof body !== 'object' || typeof body.check !== 'string') return reply.code(400).send();
    if (body.subscribers !== undefined && !Array.isArray(body.subscribers)) return reply.code(400).send();
    for (const key of ['reason', 'creator'] as const) if (body[key] !== undefined && typeof body[key] !== 'string') return reply.code(400).send();
    const subscribers = Array.isArray(body.subscribers) ? body.subscribers.map(String) : undefined;
    const ok = deps.requestCheck(body.check, subscribers, { reason: body.reason, creator: body.creator });
    return ok ? reply.code(202).send(issued(deps.clock)) : reply.code(404).send();
  });
}
