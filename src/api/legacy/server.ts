import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { redact } from '../../config/index.js';
import { registerRedaction, unredacted } from '../../http/index.js';
import { prepareResult, EntityLimitError, atEntityLimit, entityLimitMessage } from '../../legacy/index.js';
import { sendList, legacyQuery } from './http.js';
import { schemaProblems } from '../../config/index.js';
import { removeClient, resolveEvent } from '../../server/index.js';
import { bridgeSummary } from '../../bridge/index.js';
import { legacyEventOf } from '../../v2/index.js';
import type { AddRoute, LegacyApiDeps, RouteMethod } from './deps.js';
import { registerSilencedRoutes } from './silenced.js';
import { registerAggregateRoutes } from './aggregates.js';
import { registerStashRoutes } from './stashes.js';
import { AgentEventView, agentHistoryOf, agentResultOf, resolveAgentEvent, sortHistory, sortResults } from './agent-events.js';
import { EmbeddedEventStore } from '../../store/index.js';
import { legacyScope } from './scope.js';

export type { AddRoute, LegacyApiDeps } from './deps.js';
import { MAX_PARAM_LENGTH, clientNameProblem } from '../../name-limits.js';
import { httpsOption } from '../../tls/index.js';
import { nestedTooDeep, DEPTH_MESSAGE } from '../../json-depth.js';
import type { TransportInfo } from '../../transport/index.js';
import { healthFailures } from './transport-health.js';
import { LEGACY_VERSION } from '../../legacy-version.js';
import { definitionOf, entityLimitOf, legacyApiCorsOf, legacyApiCredentialsOf, legacyNamespace } from '../../config/index.js';


/**
 * A 400 as legacy answered it, with an empty body (reference §12: clients rely on it); the reason travels in a header
 * (printable ASCII only) so that a person debugging still sees what was wrong.
 */
function refuse(reply: FastifyReply, reason: string) {
  return reply.code(400).header('X-Checkbridge-Error', reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 512)).send();
}

/** A 403 in the same form: empty body, the reason in the header. */
function forbid(reply: FastifyReply, reason: string) {
  return reply.code(403).header('X-Checkbridge-Error', reason).send();
}

/** DECISIONS 11: API-posted results without `source` belong to our own API client, under a neutral name. */
const API_CLIENT_NAME = 'checkbridge-api';
const NAME = '[\\w.-]+';

interface RouteSpec {
  method: RouteMethod;
  path: string;
  pattern: RegExp;
}

/** Adds a route (GET also answers HEAD); `pattern` is the legacy path regex used for 405 `Allow` when `:param` is not `[\w.-]+`. */

function toPattern(path: string): RegExp {
  return new RegExp('^' + path.replace(/:[a-z]+/g, NAME) + '$');
}

function resultView(r: { client: string; check: Record<string, unknown>; history: readonly { status: number }[] }) {
  return { client: r.client, check: { ...r.check, history: r.history.map((h) => h.status) } };
}

/** The legacy REST API (reference §12): events, results, clients, checks, info, health, settings. */
export function buildLegacyApi(deps: LegacyApiDeps): FastifyInstance {
  // One rule for every view below: which clients (agents of other namespaces) this caller sees.
  const scope = () => legacyScope(deps.store, deps.settings());
  const agents = new AgentEventView(deps.store, deps.events ?? new EmbeddedEventStore(deps.store.resources), (client) => scope().shows(client));
  const app = Fastify({ logger: false, return503OnClosing: false, forceCloseConnections: true, bodyLimit: 1024 * 1024, routerOptions: { maxParamLength: MAX_PARAM_LENGTH }, ...httpsOption(deps.https) });
  registerRedaction(app);
  const routes: RouteSpec[] = [];
  const issued = () => ({ issued: Math.floor(deps.now() / 1000) });
  const route: AddRoute = (method, path, handler, pattern) => {
    routes.push({ method, path, pattern: pattern ?? toPattern(path) });
    app.route({ method: method === 'GET' ? ['GET', 'HEAD'] : method, url: path, handler: handler as never });
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', (request.headers['x-request-id'] as string | undefined) ?? randomUUID());
    reply.header('Connection', 'close');
    for (const [suffix, value] of Object.entries(legacyApiCorsOf(deps.settings()))) reply.header(`Access-Control-Allow-${suffix}`, value);
    if (request.method === 'OPTIONS') return reply.code(200).send();
    const api = legacyApiCredentialsOf(deps.settings());
    if (api) {
      const header = request.headers.authorization ?? '';
      const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':'); // DECISIONS 13: split on the first colon only
      if (colon < 0 || decoded.slice(0, colon) !== api.user || decoded.slice(colon + 1) !== api.password) {
        return reply.code(401).header('WWW-Authenticate', 'Basic realm="Restricted Area"').send();
      }
    }
  });

  // Every body, whatever the route, before any handler walks it.
  app.addHook('preValidation', async (request, reply) => {
    if (nestedTooDeep(request.body)) return refuse(reply, DEPTH_MESSAGE);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routes.filter((r) => r.pattern.test(path)).flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
    if (allowed.length > 0) return reply.code(405).header('Allow', [...new Set(allowed)].join(', ')).send();
    return reply.code(404).send();
  });
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) deps.logger.error({ err: error }, 'legacy API error');
    return reply.code(status >= 400 && status < 600 ? status : 500).send();
  });

  const transport = deps.transport ?? (async (): Promise<TransportInfo> => ({ name: 'in-process', connected: true }));
  route('GET', '/info', async () => ({ sensu: { version: LEGACY_VERSION }, transport: await transport(), redis: { connected: true }, servers: (await deps.servers?.()) ?? [], bridge: bridgeSummary(deps.bridge ?? null, deps.now()) }));
  route('GET', '/bridge', (_req, reply) => bridgeSummary(deps.bridge ?? null, deps.now()) ?? reply.code(404).send());
  route('GET', '/bridge/dead_letters', (req, reply) =>
    sendList(req, reply, (deps.bridge?.outbox.deadLetters() ?? []).map((d) => ({ seq: d.seq, namespace: d.namespace, entity: d.entity, check: d.check, status: d.status, message: d.message, failed_at: d.failedAt, event: JSON.parse(d.body) }))),
  );
  route('GET', '/health', async (req, reply) => {
    const failures = healthFailures(await transport(), (req.query ?? {}) as Record<string, unknown>);
    return failures.length === 0 ? reply.code(204).send() : reply.code(412).send(failures);
  });
  route('GET', '/settings', (req, reply) => {
    const settings = deps.settings().raw;
    if (!/redacted=false/i.test(req.url.split('?')[1] ?? '')) return redact(settings);
    // The whole settings (API keys, broker passwords) only to a caller who authenticated (the hook checked api.user
    // and api.password): with no credentials configured there is no such caller, whoever asks.
    if (!legacyApiCredentialsOf(deps.settings())) return forbid(reply, 'redacted=false needs api.user and api.password set and sent as basic auth');
    return unredacted(req, settings);
  });

  const visible = (client: Record<string, unknown> | null) => (client && !client.invalidated && scope().shows(client) ? client : null);
  const hidden = (client: string) => scope().hides(client);
  route('GET', '/clients', (req, reply) => sendList(req, reply, deps.store.listClients().filter((c) => visible(c))));
  route('GET', '/clients/:client', (req, reply) => {
    const client = visible(deps.store.getClient((req.params as { client: string }).client));
    return client ?? reply.code(404).send();
  });
  route('POST', '/clients', (req, reply) => {
    const body = req.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return reply.code(400).send();
    const client: Record<string, unknown> = { keepalives: false, ...body, subscriptions: body.subscriptions ?? [], version: LEGACY_VERSION, timestamp: Math.floor(deps.now() / 1000) };
    if (schemaProblems('client', client).length > 0) return reply.code(400).send();
    // The schema says nothing of length; every door holds names to the same rule.
    const badName = clientNameProblem(client.name);
    if (badName) return refuse(reply, badName);
    // An agent's record names the namespace its events are read from: only the agent WebSocket writes one.
    if (client.entity_class === 'agent') return refuse(reply, 'entity_class agent is for Sensu Go agents, which register over the agent WebSocket');
    client.subscriptions = [...new Set([...(client.subscriptions as string[]), `client:${String(client.name)}`])];
    // A new client is a new entity: refused at the entity limit as every other door refuses one (spec §3).
    const settings = deps.settings();
    const [limit, namespace] = [entityLimitOf(settings), legacyNamespace(settings)];
    const known = visible(deps.store.getClient(String(client.name))) || deps.store.hasV2Entity(String(client.name), namespace);
    if (!known && atEntityLimit(deps.store, limit, namespace)) return reply.code(402).send({ error: entityLimitMessage(limit) });
    deps.store.putClient(client);
    return reply.code(201).send({ name: client.name });
  });
  route('GET', '/clients/:client/history', async (req) => {
    const name = (req.params as { client: string }).client;
    if (hidden(name)) return [];
    const legacy = deps.store
      .listResults(name)
      .filter((r) => r.history.length > 0 && r.check.executed !== undefined)
      .map((r) => ({ check: r.check.name, history: r.history.map((h) => h.status), last_execution: r.check.executed, last_status: r.history.at(-1)!.status, last_result: r.check }));
    // An agent's own checks: one history each, its v2 event's.
    const own = (await agents.checks(name)).map(agentHistoryOf);
    return own.length === 0 ? legacy : sortHistory([...legacy, ...own]);
  });
  route('DELETE', '/clients/:client', async (req, reply) => {
    const name = (req.params as { client: string }).client;
    if (!visible(deps.store.getClient(name))) return reply.code(404).send();
    const query = legacyQuery(req.url);
    const expire = /^[0-9]+$/.test(query.invalidate_expire ?? '') ? Math.floor(deps.now() / 1000) + Number(query.invalidate_expire) : null;
    // As its legacy events, an agent's open check events are resolved (and handled) before its record goes.
    const open = await agents.open(name);
    void Promise.allSettled(open.map((found) => resolveAgentEvent(deps.intake, deps.store, found, deps.now())))
      .then(() => removeClient(deps.store, deps.intake, name, deps.now(), 'invalidate' in query ? { until: expire } : undefined))
      .catch((error) => deps.logger.error({ err: error, client: name }, 'failed to delete client'));
    return reply.code(202).send(issued());
  });

  route('GET', '/checks', (req, reply) => {
    const settings = deps.settings();
    return sendList(req, reply, Object.values(settings.checks).filter((c) => !c.standalone).map((c) => definitionOf(settings, c.name)));
  });
  route('GET', '/checks/:check', (req, reply) => {
    const settings = deps.settings();
    const name = (req.params as { check: string }).check;
    const check = settings.checks[name];
    return check && !check.standalone ? definitionOf(settings, name) : reply.code(404).send();
  });
  route('DELETE', '/checks/:check', (req, reply) => {
    deps.store.deleteResultsOfCheck((req.params as { check: string }).check);
    return reply.code(202).send(issued());
  });

  // A legacy event resolves as a legacy result; an agent's open event as an OK v2 event of its check.
  const resolve = async (reply: FastifyReply, client: string, check: string) => {
    if (hidden(client)) return reply.code(404).send();
    const event = deps.store.getEvent(client, check);
    if (event) await resolveEvent(deps.intake, event, deps.now());
    else {
      const found = await agents.openEvent(client, check);
      if (!found) return reply.code(404).send();
      const refused = await resolveAgentEvent(deps.intake, deps.store, found, deps.now());
      if (refused) return refuse(reply, refused);
    }
    return reply.code(202).send(issued());
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
  route('POST', '/request', (req, reply) => {
    const body = req.body as { check?: unknown; subscribers?: unknown; reason?: unknown; creator?: unknown } | null;
    if (!body || typeof body !== 'object' || typeof body.check !== 'string') return reply.code(400).send();
    if (body.subscribers !== undefined && !Array.isArray(body.subscribers)) return reply.code(400).send();
    for (const key of ['reason', 'creator'] as const) if (body[key] !== undefined && typeof body[key] !== 'string') return reply.code(400).send();
    const subscribers = Array.isArray(body.subscribers) ? body.subscribers.map(String) : undefined;
    const ok = deps.requestCheck(body.check, subscribers, { reason: body.reason, creator: body.creator });
    return ok ? reply.code(202).send(issued()) : reply.code(404).send();
  });
  // Events: the legacy store's, and the open check events of Sensu Go agents (a view over their v2 events).
  const allEvents = async () => agents.withLegacy(scope().filter(deps.store.listEvents(), (e) => (e.client as { name?: unknown } | undefined)?.name));
  route('GET', '/events', async (req, reply) => sendList(req, reply, await allEvents()));
  route('GET', '/incidents', async (req, reply) => sendList(req, reply, await allEvents()));
  route('GET', '/events/:client', async (req, reply) => {
    const client = (req.params as { client: string }).client;
    return sendList(req, reply, hidden(client) ? [] : await agents.withLegacy(deps.store.listEvents(client), client));
  });
  route('GET', '/events/:client/:check', async (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    if (hidden(client)) return reply.code(404).send();
    const legacy = deps.store.getEvent(client, check);
    if (legacy) return legacy;
    const found = await agents.openEvent(client, check);
    return found ? legacyEventOf(found.event, found.client) : reply.code(404).send();
  });

  // Results: the legacy store's, then each agent's checks (its v2 events, statuses as history).
  const withAgentResults = async (legacy: { client: string; check: Record<string, unknown> }[], client?: string) => {
    const own = (await agents.checks(client)).map(agentResultOf);
    return own.length === 0 ? legacy : sortResults([...legacy, ...own]);
  };
  route('GET', '/results', async (req, reply) => sendList(req, reply, await withAgentResults(scope().filter(deps.store.listResults(), (r) => r.client).map(resultView))));
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
    if (found) return reply.code(409).header('X-Checkbridge-Error', `the result of Sensu Go agent ${client} is its v2 event: DELETE /api/core/v2/namespaces/${found.namespace}/events/${client}/${check}`).send();
    return reply.code(404).send();
  });
  route('POST', '/results', async (req, reply) => {
    const now = Math.floor(deps.now() / 1000);
    const prepared = prepareResult(req.body, now);
    if (!prepared.ok) return refuse(reply, prepared.message);
    try {
      await (deps.results ?? deps.intake).submit({ client: API_CLIENT_NAME, check: { ...prepared.check, issued: now, executed: now } });
    } catch (error) {
      if (error instanceof EntityLimitError) return reply.code(error.httpStatus).send({ error: error.message });
      throw error;
    }
    return reply.code(202).send({ issued: now });
  });

  registerSilencedRoutes(route, deps);
  registerAggregateRoutes(route, deps);
  registerStashRoutes(route, deps);
  return app;
}
