import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Settings } from '../../config/settings.js';
import { definitionOf } from '../../config/settings.js';
import { redact } from '../../config/redact.js';
import type { SqliteStore } from '../../store/index.js';
import type { ResultIntake } from '../../server/intake.js';
import { prepareResult } from '../../server/result-validation.js';
import { sendList } from './http.js';

export interface LegacyApiDeps {
  readonly store: SqliteStore;
  readonly settings: () => Settings;
  readonly intake: ResultIntake;
  readonly logger: Logger;
  readonly now: () => number;
}

/** DECISIONS 11: API-posted results without `source` belong to our own API client, under a neutral name. */
export const API_CLIENT_NAME = 'checkbridge-api';
const NAME = '[\\w.-]+';

interface RouteSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  pattern: RegExp;
}

function toPattern(path: string): RegExp {
  return new RegExp('^' + path.replace(/:[a-z]+/g, NAME) + '$');
}

function resultView(r: { client: string; check: Record<string, unknown>; history: readonly { status: number }[] }) {
  return { client: r.client, check: { ...r.check, history: r.history.map((h) => h.status) } };
}

/** The legacy REST API (reference §12): events, results, clients, checks, info, health, settings. */
export function buildLegacyApi(deps: LegacyApiDeps): FastifyInstance {
  const app = Fastify({ logger: false, return503OnClosing: false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });
  const routes: RouteSpec[] = [];
  const issued = () => ({ issued: Math.floor(deps.now() / 1000) });
  const route = (method: RouteSpec['method'], path: string, handler: (req: FastifyRequest, reply: FastifyReply) => unknown) => {
    routes.push({ method, path, pattern: toPattern(path) });
    app.route({ method: method === 'GET' ? ['GET', 'HEAD'] : method, url: path, handler: handler as never });
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', (request.headers['x-request-id'] as string | undefined) ?? randomUUID());
    reply.header('Connection', 'close');
    const cors = { Origin: '*', Methods: 'GET, POST, PUT, DELETE, OPTIONS', Credentials: 'true', Headers: 'Origin, X-Requested-With, Content-Type, Accept, Authorization' };
    const configured = (deps.settings().raw.api as { cors?: Record<string, string> } | undefined)?.cors ?? {};
    for (const [suffix, value] of Object.entries({ ...cors, ...configured })) reply.header(`Access-Control-Allow-${suffix}`, value);
    if (request.method === 'OPTIONS') return reply.code(200).send();
    const api = (deps.settings().raw.api ?? {}) as { user?: string; password?: string };
    if (api.user !== undefined && api.password !== undefined) {
      const header = request.headers.authorization ?? '';
      const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':'); // DECISIONS 13: split on the first colon only
      if (colon < 0 || decoded.slice(0, colon) !== api.user || decoded.slice(colon + 1) !== api.password) {
        return reply.code(401).header('WWW-Authenticate', 'Basic realm="Restricted Area"').send();
      }
    }
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

  route('GET', '/info', () => ({ sensu: { version: '1.9.0' }, transport: { name: 'in-process', connected: true }, redis: { connected: true }, servers: [] }));
  route('GET', '/health', (_req, reply) => reply.code(204).send());
  route('GET', '/settings', (req) => {
    const settings = deps.settings().raw;
    return /redacted=false/i.test(req.url.split('?')[1] ?? '') ? settings : redact(settings);
  });

  route('GET', '/clients', (req, reply) =>
    sendList(req, reply, deps.store.listClients().map((c) => redact(c, (c.redact as string[] | undefined) ?? undefined))),
  );
  route('GET', '/clients/:client', (req, reply) => {
    const client = deps.store.getClient((req.params as { client: string }).client);
    return client ? redact(client, (client.redact as string[] | undefined) ?? undefined) : reply.code(404).send();
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

  route('GET', '/events', (req, reply) => sendList(req, reply, deps.store.listEvents()));
  route('GET', '/incidents', (req, reply) => sendList(req, reply, deps.store.listEvents()));
  route('GET', '/events/:client', (req, reply) => sendList(req, reply, deps.store.listEvents((req.params as { client: string }).client)));
  route('GET', '/events/:client/:check', (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    return deps.store.getEvent(client, check) ?? reply.code(404).send();
  });

  route('GET', '/results', (req, reply) => sendList(req, reply, deps.store.listResults().map(resultView)));
  route('GET', '/results/:client', (req, reply) => sendList(req, reply, deps.store.listResults((req.params as { client: string }).client).map(resultView)));
  route('GET', '/results/:client/:check', (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    const stored = deps.store.getResult(client, check);
    return stored ? resultView(stored) : reply.code(404).send();
  });
  route('DELETE', '/results/:client/:check', (req, reply) => {
    const { client, check } = req.params as { client: string; check: string };
    return reply.code(deps.store.deleteResult(client, check) ? 204 : 404).send();
  });
  route('POST', '/results', async (req, reply) => {
    const now = Math.floor(deps.now() / 1000);
    const prepared = prepareResult(req.body, now);
    if (!prepared.ok) return reply.code(400).send();
    await deps.intake.submit({ client: API_CLIENT_NAME, check: { ...prepared.check, issued: now, executed: now } });
    return reply.code(202).send({ issued: now });
  });

  return app;
}
