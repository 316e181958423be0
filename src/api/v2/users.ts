import type { FastifyInstance } from 'fastify';
import { fail, callerOf, ADMIN_GROUP, NAME, type V2ApiDeps } from './context.js';
import { hashPassword } from '../../auth/passwords.js';

const view = (user: Record<string, any>) => ({ username: user.username, groups: user.groups ?? [], disabled: Boolean(user.disabled) });

/** Local users: admins create them; a user may change their own password, an admin anyone's. */
export function registerUserRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.v2;
  app.post('/api/core/v2/users', async (request, reply) => {
    if (!callerOf(request).groups.includes(ADMIN_GROUP)) return fail(reply, 'forbidden', 'unauthorized to perform action');
    const body = request.body as { username?: unknown; password?: unknown; groups?: unknown; provider?: unknown } | null;
    if (!body || typeof body.username !== 'string' || !NAME.test(body.username)) return fail(reply, 'invalid', 'username must be a valid name');
    if (typeof body.password !== 'string' || body.password.length < 8) return fail(reply, 'invalid', 'password must be at least 8 characters');
    if (v2.getUser(body.username)) return fail(reply, 'exists', 'resource already exists');
    const groups = Array.isArray(body.groups) ? body.groups.map(String) : [];
    v2.putUser(body.username, { username: body.username, groups, password_hash: await hashPassword(body.password), ...(typeof body.provider === 'string' ? { provider: body.provider } : {}) });
    return reply.code(201).type('application/json').send();
  });
  app.get('/api/core/v2/users/:name', (request, reply) => {
    const user = v2.getUser((request.params as { name: string }).name);
    return user ? view(user) : fail(reply, 'notFound', 'not found');
  });
  app.put('/api/core/v2/users/:name/password', async (request, reply) => {
    const name = (request.params as { name: string }).name;
    const caller = callerOf(request);
    if (caller.username !== name && !caller.groups.includes(ADMIN_GROUP)) return fail(reply, 'forbidden', 'unauthorized to perform action');
    const user = v2.getUser(name);
    if (!user) return fail(reply, 'notFound', 'not found');
    const body = request.body as { password?: unknown } | null;
    if (!body || typeof body.password !== 'string' || body.password.length < 8) return fail(reply, 'invalid', 'password must be at least 8 characters');
    v2.putUser(name, { ...user, password_hash: await hashPassword(body.password) });
    v2.deleteUserSessions(name);
    return reply.code(204).send();
  });
}
