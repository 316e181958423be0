import type { FastifyInstance, FastifyReply } from 'fastify';
import { fail, callerOf, NAME, type V2ApiDeps } from './context.js';
import { hashPassword } from '../../auth/passwords.js';
import { listResponse } from './listing.js';
import { USER_FIELDS } from '../../v2/resource-fields.js';

type Json = Record<string, any>;

/** What the API shows of a user: never a password or its hash. */
const view = (user: Json) => ({ username: user.username, groups: user.groups ?? [], disabled: Boolean(user.disabled) });

const passwordProblem = (password: unknown) => (typeof password !== 'string' || password.length < 8 ? 'password must be at least 8 characters' : null);

/**
 * Local users (reference v2-api §3): whoever RBAC lets (cluster-wide `users`) lists, creates (POST, or PUT
 * create-or-update) and disables them (DELETE); a user may always read themselves and change their own password (access.ts). A change of password or a disabling ends the user's sessions.
 */
export function registerUserRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.v2;
  const save = async (reply: FastifyReply, name: string, body: Json | null, mode: 'create' | 'upsert') => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(reply, 'invalid', 'request body must be a JSON object (user)');
    if (typeof name !== 'string' || !NAME.test(name)) return fail(reply, 'invalid', 'username must be a valid name');
    if (body.username !== undefined && body.username !== name) return fail(reply, 'invalid', `the name of the resource (${String(body.username)}) does not match the name of the URI (${name})`);
    if (body.groups !== undefined && (!Array.isArray(body.groups) || body.groups.some((g: unknown) => typeof g !== 'string'))) return fail(reply, 'invalid', 'groups must be a list of strings');
    const existing = v2.getUser(name);
    if (existing && mode === 'create') return fail(reply, 'exists', 'resource already exists');
    if (!existing || body.password !== undefined) {
      const problem = passwordProblem(body.password);
      if (problem) return fail(reply, 'invalid', problem);
    }
    const user: Json = {
      ...(existing ?? {}),
      username: name,
      groups: body.groups ?? existing?.groups ?? [],
      disabled: body.disabled === undefined ? Boolean(existing?.disabled) : Boolean(body.disabled),
      ...(typeof body.provider === 'string' ? { provider: body.provider } : {}),
      ...(body.password !== undefined ? { password_hash: await hashPassword(body.password) } : {}),
    };
    v2.putUser(name, user);
    if (existing && (body.password !== undefined || user.disabled)) v2.deleteUserSessions(name);
    return reply.code(existing ? 200 : 201).type('application/json').send();
  };
  app.post('/api/core/v2/users', (request, reply) => {
    const body = request.body as Json | null;
    return save(reply, body?.username, body, 'create');
  });
  app.put('/api/core/v2/users/:name', (request, reply) => save(reply, (request.params as { name: string }).name, request.body as Json | null, 'upsert'));
  app.get('/api/core/v2/users', (request, reply) => listResponse(request, reply, v2.listUsers().map(view), USER_FIELDS, (u) => String(u.username)));
  app.get('/api/core/v2/users/:name', (request, reply) => {
    const name = (request.params as { name: string }).name;
    const user = v2.getUser(name);
    return user ? view(user) : fail(reply, 'notFound', 'not found');
  });
  // Sensu Go disables rather than deletes, so the name cannot be taken over by someone else.
  app.delete('/api/core/v2/users/:name', (request, reply) => {
    const name = (request.params as { name: string }).name;
    const user = v2.getUser(name);
    if (!user) return fail(reply, 'notFound', 'not found');
    if (name === callerOf(request).username) return fail(reply, 'invalid', 'you cannot disable yourself');
    v2.putUser(name, { ...user, disabled: true });
    v2.deleteUserSessions(name);
    return reply.code(204).send();
  });
  app.put('/api/core/v2/users/:name/password', async (request, reply) => {
    const name = (request.params as { name: string }).name;
    const user = v2.getUser(name);
    if (!user) return fail(reply, 'notFound', 'not found');
    const body = request.body as { password?: unknown } | null;
    const problem = passwordProblem(body?.password);
    if (problem) return fail(reply, 'invalid', problem);
    v2.putUser(name, { ...user, password_hash: await hashPassword(body!.password as string) });
    v2.deleteUserSessions(name);
    return reply.code(204).send();
  });
}
