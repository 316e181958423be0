import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { fail, callerOf, nowS, type V2ApiDeps } from './context.js';
import { listResponse } from './listing.js';
import { APIKEY_FIELDS } from '../../v2/index.js';
import { hashApiKey } from '../../auth/index.js';
import type { ApiKeyRow } from '../../store/index.js';
import { otherUserProblem } from '../../auth/index.js';
import { rbacView } from './rbac-store.js';

// A key granted before keys had an ID kept its first 8 characters as its hint: listed with an ellipsis.
const ID_LENGTH = 36;
/** A key is listed by its ID, never by the key (stored only as a hash); the caller who names the key sees it back. */
const view = (row: ApiKeyRow, name = row.hint.length < ID_LENGTH ? `${row.hint}…` : row.hint) => ({
  metadata: { name, created_by: row.createdBy },
  username: row.username,
  created_at: row.createdAt,
});

/** The ID a list shows, with the ellipsis of an old key's 8-character hint taken off. */
const listedId = (name: string) => (name.endsWith('…') ? name.slice(0, -1) : name);

/**
 * API keys, for whoever RBAC lets (cluster-wide `apikeys`). A key acts as its
 * user: minting one for another user hands out everything they hold, so only a cluster admin may (anyone for themselves).
 */
export function registerApiKeyRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.resources;
  app.post('/api/core/v2/apikeys', (request, reply) => {
    const body = request.body as { username?: unknown } | null;
    if (!body || typeof body.username !== 'string' || body.username === '') return fail(reply, 'invalid', 'username is required');
    const refused = otherUserProblem(rbacView(v2), callerOf(request), body.username, 'create an API key for');
    if (refused) return fail(reply, 'forbidden', refused);
    const user = v2.getUser(body.username);
    if (!user) return fail(reply, 'invalid', 'user does not exist');
    if (user.provider && user.provider !== 'basic')
      return fail(reply, 'invalid', `API keys are not supported for users of external authentication providers (${String(user.provider)})`);
    const key = randomUUID();
    v2.putApiKey({ keyHash: hashApiKey(key), username: body.username, createdBy: callerOf(request).username, createdAt: nowS(deps), hint: randomUUID() });
    return reply.code(201).header('Location', `/api/core/v2/apikeys/${key}`).type('application/json').send();
  });
  app.get('/api/core/v2/apikeys', (request, reply) =>
    listResponse(
      request,
      reply,
      v2.listApiKeys().map((row) => view(row)),
      APIKEY_FIELDS,
      (k) => `${String(k.created_at).padStart(12, '0')}/${k.metadata.name}`,
    ),
  );
  app.get('/api/core/v2/apikeys/:key', (request, reply) => {
    const key = (request.params as { key: string }).key;
    const byKey = v2.getApiKey(hashApiKey(key));
    if (byKey) return view(byKey, key);
    const byId = v2.getApiKeyById(listedId(key));
    return byId ? view(byId) : fail(reply, 'notFound', 'not found');
  });
  app.delete('/api/core/v2/apikeys/:key', (request, reply) => {
    const key = (request.params as { key: string }).key;
    const row = v2.getApiKey(hashApiKey(key)) ?? v2.getApiKeyById(listedId(key));
    return row && v2.deleteApiKey(row.keyHash) ? reply.code(204).send() : fail(reply, 'notFound', 'not found');
  });
}
