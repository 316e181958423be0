import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, type V2ApiDeps } from './context.js';
import { hashPassword, verifyPassword } from '../../auth/index.js';
import { isExternal } from '../../auth/index.js';
import { isClusterAdmin } from '../../auth/index.js';
import { rbacView } from './rbac-store.js';
import { loginLimiterOf } from './auth.js';
import type { Json } from '../../json.js';

export const passwordProblem = (password: unknown) => (typeof password !== 'string' || password.length < 8 ? 'password must be at least 8 characters' : null);

export const externalMessage = (name: string, provider: unknown) => `user "${name}" signs in through the external authentication provider "${String(provider)}" and has no local password: change it in the provider`;

const USAGE = 'send {"password": <current password>, "new_password": <new password>}';

/** The current password and the new one the body carries (null: sensuctl's bcrypt `password_hash`), or why it cannot be read. */
function readBody(body: unknown, resetting: boolean): { current: string | null; next: string | null } | { problem: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { problem: `request body must be a JSON object: ${USAGE}` };
  const { password, new_password: newPassword, password_hash: newHash } = body as Json;
  if (password !== undefined && typeof password !== 'string') return { problem: 'password (the current password) must be a string' };
  if (newHash !== undefined) return { current: password ?? null, next: null };
  if (newPassword !== undefined) return { current: password ?? null, next: newPassword };
  // The earlier form, kept for a cluster admin's reset of another user: the new password alone, as `password`.
  if (resetting && password !== undefined) return { current: null, next: password };
  return { problem: `new_password is required (password is the current password): ${USAGE}` };
}

/**
 * `PUT /api/core/v2/users/:name/password`: the current password proves who asks. Forms: sensuctl's
 * `{"password": <current>, "password_hash": <bcrypt of the new>}` (bcrypt is not verified here yet: refused with a
 * 400 saying so), and the plain `{"password": <current>, "new_password": <new>}`. A cluster admin resets another
 * user's password without the current one (`{"new_password"}`, or the earlier `{"password": <new>}`); when they
 * send a current password it is checked too. Wrong current passwords count toward the per-address login limit.
 * Users of external providers have no local password. The user's sessions end.
 */
export async function changePassword(deps: V2ApiDeps, request: FastifyRequest, reply: FastifyReply) {
  const v2 = deps.store.resources;
  const name = (request.params as { name: string }).name;
  const caller = callerOf(request);
  const user = v2.getUser(name);
  if (!user) return fail(reply, 'notFound', 'not found');
  const self = name === caller.username;
  // The route's RBAC (update users) let another user through; resetting their password is a cluster admin's alone.
  const resetting = !self && isClusterAdmin(rbacView(v2), caller);
  if (!self && !resetting) return fail(reply, 'forbidden', `unauthorized to perform action: user "${caller.username}" may not reset the password of user "${name}": only cluster admins may`);
  if (isExternal(user)) return fail(reply, 'invalid', externalMessage(name, user.provider));
  const read = readBody(request.body, resetting);
  if ('problem' in read) return fail(reply, 'invalid', read.problem);
  if (read.current === null && !resetting) return fail(reply, 'invalid', `password (the current password) is required: ${USAGE}`);
  if (read.current !== null) {
    const limiter = loginLimiterOf(deps);
    const wait = limiter.retryAfter(request.ip);
    if (wait > 0) return reply.code(429).header('Retry-After', String(wait)).send({ message: 'too many failed password checks: try again later', code: 4 });
    const matches = typeof user.password_hash === 'string' && (await verifyPassword(read.current, user.password_hash));
    if (!matches) {
      limiter.recordFailure(request.ip);
      return fail(reply, 'invalid', 'the current password is wrong');
    }
  }
  // TODO(bcrypt): no bcrypt implementation is installed; sensuctl's password_hash needs one to be verified at login.
  if (read.next === null) return fail(reply, 'invalid', 'password_hash (a bcrypt hash, as sensuctl sends) is not supported yet: send the new password in plain text as new_password');
  const problem = passwordProblem(read.next);
  if (problem) return fail(reply, 'invalid', problem);
  v2.putUser(name, { ...user, password_hash: await hashPassword(read.next) });
  v2.deleteUserSessions(name);
  return reply.code(204).send();
}
