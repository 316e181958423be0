import { prepareResult, EntityLimitError } from '../../legacy/index.js';
import { legacyNamespace } from '../../config/index.js';
import { IntakeFull } from '../../intake/index.js';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { sendList, refuse } from './http.js';
import { agentResultOf, sortResults } from './agent-events.js';
import type { LegacyViews } from './views.js';

/** As in legacy (docs/legacy-quirks.md), API-posted results without `source` belong to our own API client, under a neutral name. */
const API_CLIENT_NAME = 'checkbridge-api';

function resultView(r: { client: string; check: Record<string, unknown>; history: readonly { status: number }[] }) {
  return { client: r.client, check: { ...r.check, history: r.history.map((h) => h.status) } };
}

/** Results: the legacy store's, then each agent's checks (its v2 events, statuses as history); POST /results submits one. */
export function registerResultRoutes(route: AddRoute, deps: LegacyApiDeps, views: LegacyViews): void {
  const { scope, agents, hidden } = views;
  const withAgentResults = async (legacy: { client: string; check: Record<string, unknown> }[], client?: string) => {
    const own = (await agents.checks(client)).map(agentResultOf);
    return own.length === 0 ? legacy : sortResults([...legacy, ...own]);
  };
  route('GET', '/results', async (req, reply) =>
    sendList(
      req,
      reply,
      await withAgentResults(
        scope()
          .filter(deps.store.listResults(), (r) => r.client)
          .map(resultView),
      ),
    ),
  );
  route('GET', '/results/:client', async (req, reply) => {
    const client = (req.params as { client: string }).client;
    return sendList(req, reply, hidden(client) ? [] : await withAgentResults(deps.store.listResults(client).map(resultView), client));
  });
  route('GET', '/results/:client/:check', async (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    if (hidden(client)) return reply.code(404).send();
    const stored = deps.store.getResult(client, check);
    if (stored) return resultView(stored);
    const found = await agents.check(client, check);
    return found ? agentResultOf(found) : reply.code(404).send();
  });
  route('DELETE', '/results/:client/:check', async (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    if (hidden(client)) return reply.code(404).send();
    if (deps.store.deleteResult(client, check)) return reply.code(204).send();
    // An agent's result is its v2 event, which the v2 API deletes: refused here rather than half done.
    const found = await agents.check(client, check);
    if (found)
      return reply
        .code(409)
        .header(
          'X-Checkbridge-Error',
          `the result of Sensu Go agent ${client} is its v2 event: DELETE /api/core/v2/namespaces/${found.namespace}/events/${client}/${check}`,
        )
        .send();
    return reply.code(404).send();
  });
  route('POST', '/results', async (req, reply) => {
    const now = Math.floor(deps.clock.now() / 1000);
    const prepared = prepareResult(req.body, now);
    if (!prepared.ok) return refuse(reply, prepared.message);
    // Another namespace's agent is the agent WebSocket's alone: no legacy result is written into it.
    const agent = views.agentRecord(prepared.check.source);
    const namespace = legacyNamespace(deps.settings());
    if (agent && agent.namespace !== namespace)
      return refuse(
        reply,
        `source ${JSON.stringify(prepared.check.source)} is a Sensu Go agent of another namespace than ${namespace}: its results come only over the agent WebSocket`,
      );
    // While the store is behind, nothing more is taken: 503, come back (a broker's `results` queue holds them instead).
    if (!deps.results && deps.intake.backlog.full) {
      const full = new IntakeFull();
      return reply.code(503).header('Retry-After', String(full.retryAfterS)).send({ error: full.message });
    }
    try {
      await (deps.results ?? deps.intake).submit({ client: API_CLIENT_NAME, check: { ...prepared.check, issued: now, executed: now } });
    } catch (error) {
      if (error instanceof EntityLimitError) return reply.code(error.httpStatus).send({ error: error.message });
      throw error;
    }
    return reply.code(202).send({ issued: now });
  });
}
