import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PREFIX, type DashboardDeps } from './deps.js';
import { legacyApiCredentialsOf } from '../../config/index.js';

// The legacy resources the dashboard reads and acts on; settings stay with the legacy API's own credentials.
const SEGMENTS = new Set(['events', 'resolve', 'request', 'clients', 'checks', 'results', 'silenced', 'stashes', 'stash', 'aggregates', 'bridge', 'info']);
const FORWARD = `${PREFIX}/legacy`;

/**
 * `/api/checkbridge/v1/legacy/<legacy path>`: answered by the legacy API's own handlers in-process, so the dashboard
 * needs one login (the v2 caller, already authenticated) and the legacy API's rules apply unchanged.
 */
export function registerLegacyForward(app: FastifyInstance, dash: DashboardDeps, changed: () => void): void {
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    // The path the router matched (decoded once, as every route's parameters are), never a slice of the raw URL.
    const rest = String((request.params as { '*'?: string })['*'] ?? '');
    const raw = request.raw.url ?? '';
    const query = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
    const url = `/${rest.split('/').map(encodeURIComponent).join('/')}${query}`;
    const segment = rest.split('/')[0] ?? '';
    if (!SEGMENTS.has(segment)) return reply.code(404).send({ message: 'not a dashboard resource', code: 2 });
    const api = legacyApiCredentialsOf(dash.settings());
    // A type only with a body: a bodyless request typed JSON is one the legacy API refuses (400).
    const headers: Record<string, string> = request.method === 'POST' ? { 'content-type': 'application/json' } : {};
    if (api) headers.authorization = 'Basic ' + Buffer.from(`${api.user}:${api.password}`).toString('base64');
    const response = await dash.legacy.inject({
      method: request.method as 'GET' | 'POST' | 'DELETE',
      url,
      headers,
      ...(request.method === 'POST' ? { payload: JSON.stringify(request.body ?? {}) } : {}),
    });
    if (request.method !== 'GET') changed();
    for (const name of ['content-type', 'x-pagination']) {
      const value = response.headers[name];
      if (typeof value === 'string') reply.header(name, value);
    }
    return reply.code(response.statusCode).send(response.rawPayload);
  };
  app.get(`${FORWARD}/*`, forward);
  app.post(`${FORWARD}/*`, forward);
  app.delete(`${FORWARD}/*`, forward);
}
