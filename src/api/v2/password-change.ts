import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, type V2ApiDeps } from './context.js';
import { attemptLogin, closedSignal, hashPassword, verifyPassword, bcryptHashProblem } from '../../auth/index.js';
import { isExternal } from '../../auth/index.js';
import { isClusterAdmin } from '../../auth/index.js';
import { rbacView } from './rbac-store.js';
import { deferLogin, loginLimiterOf } from './auth.js';
import { isPlainObject } from '../../config/index.js';

export const passwordProblem = (password: unknown) => (typeof password !== 'string' || password.length < 8 ? 'password must be at least 8 characters' : null);

export const externalMessage = (name: string, provider: unknown) =>
  `user "${name}" signs in through the external authentication provider "${String(provider)}" and has no local password: change it in the provider`;

const USAGE = 'send {"password": <current password>, "new_password": <new password>} (or "password_hash": <bcrypt hash of the new one>, as sensuctl does)';

/** A new password as sent, unchecked: in plain text, or as sensuctl's bcrypt hash of it. */
type NewPassword = { plain: unknown } | { bcrypt: unknown };

/** The current password and the new one the body carries, or why it cannot be read. */
function readBody(body: unknown, resetting: boolean): { current: string | null; next: NewPassword } | { problem: string } {
  if (!isPlainObject(body)) return { problem: `request body must be a JSON object: ${USAGE}` };
  const { password, new_password: newPassword, password_hash: newHash } = body;
  if (password !== undefined && typeof password !== 'string') return { problem: 'password (the current password) must be a string' };
  if (newHash !== undefined) return { current: password ?? null, next: { bcrypt: newHash } };
  if (newPassword !== undefined) return { current: password ?? null, next: { plain: newPassword } };
  // The earlier form, kept for a cluster admin's reset of another user: the new password alone, as `password`.
  if (resetting && password !== undefined) return { current: null, next: { plain: password } };
  return { problem: `new_password is required (password is the current password): ${USAGE}` };
}

/**
 * `PUT /api/core/v2/users/:name/password`: the current password proves who asks. Forms: sensuctl's
 * `{"password": <current>, "password_hash": <bcrypt of the new>}` (stored as given: logins check bcrypt hashes), and
 * the plain `{"password": <current>, "new_password": <new>}`. A cluster admin resets another
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
  if (!self && !resetting)
    return fail(
      reply,
      'forbidden',
      `unauthorized to perform action: user "${caller.username}" may not reset the password of user "${name}": only cluster admins may`,
    );
  if (isExternal(user)) return fail(reply, 'invalid', externalMessage(name, user.provider));
  const read = readBody(request.body, resetting);
  if ('problem' in read) return fail(reply, 'invalid', read.problem);
  if (read.current === null && !resetting) return fail(reply, 'invalid', `password (the current password) is required: ${USAGE}`);
  if (read.current !== null) {
    const current = read.current;
    const { signal, release } = closedSignal(request.raw.socket);
    const outcome = await attemptLogin(loginLimiterOf(deps), { address: request.ip, username: name }, async (priority) =>
      (await verifyPassword(current, user.password_hash, signal, priority)) ? true : null,
    ).finally(release);
    if (outcome.kind === 'limited') return deferLogin(reply, outcome, { message: 'too many failed password checks: try again later', code: 4 });
    if (outcome.kind === 'busy') return deferLogin(reply, outcome, { message: 'password checks are busy: try again shortly', code: 0 });
    if (outcome.kind !== 'ok') return fail(reply, 'invalid', 'the current password is wrong');
  }
  const stored = await storedHashOf(read.next);
  if ('problem' in stored) return fail(reply, 'invalid', stored.problem);
  v2.putUser(name, { ...user, password_hash: stored.hash });
  v2.deleteUserSessions(name);
  // 201 as Sensu Go answers: clients such as the Ansible collection accept 200 or 201 only.
  return reply.code(201).send();
}

/**
 * `PUT /api/core/v2/users/:name/change_password`, the web UI's form: `{"password": <current>, "password_new": <new>}`,
 * always with the current password; the same change as above.
 */
export async function changePasswordFromWeb(deps: V2ApiDeps, request: FastifyRequest, reply: FastifyReply) {
  const body = request.body;
  if (!isPlainObject(body) || typeof body.password !== 'string' || typeof body.password_new !== 'string')
    return fail(reply, 'invalid', 'send {"password": <current password>, "password_new": <new password>}, both strings');
  request.body = { password: body.password, new_password: body.password_new };
  return changePassword(deps, request, reply);
}

/** What is stored for a new password: a bcrypt hash as given (its length is sensuctl's to check), a plain one hashed. */
export async function storedHashOf(next: NewPassword): Promise<{ hash: string } | { problem: string }> {
  // Each check lets only a string through.
  if ('bcrypt' in next) {
    const problem = bcryptHashProblem(next.bcrypt);
    return problem ? { problem } : { hash: String(next.bcrypt) };
  }
  const problem = passwordProblem(next.plain);
  return problem ? { problem } : { hash: await hashPassword(String(next.plain)) };
}

/**
 * `PUT /api/core/v2/users/:name/reset_password` (`sensuctl user reset-password`): a cluster admin sets another user's
 * password, as `{"password_hash": <bcrypt>}`, without the current one. The user's sessions end.
 */
export async function resetPassword(deps: V2ApiDeps, request: FastifyRequest, reply: FastifyReply) {
  const v2 = deps.store.resources;
  const name = (request.params as { name: string }).name;
  const caller = callerOf(request);
  const user = v2.getUser(name);
  if (!user) return fail(reply, 'notFound', 'not found');
  if (!isClusterAdmin(rbacView(v2), caller))
    return fail(
      reply,
      'forbidden',
      `unauthorized to perform action: user "${caller.username}" may not reset the password of user "${name}": only cluster admins may`,
    );
  if (isExternal(user)) return fail(reply, 'invalid', externalMessage(name, user.provider));
  const body = request.body;
  const stored = await storedHashOf({ bcrypt: isPlainObject(body) ? body.password_hash : undefined });
  if ('problem' in stored) return fail(reply, 'invalid', stored.problem);
  v2.putUser(name, { ...user, password_hash: stored.hash });
  v2.deleteUserSessions(name);
  return reply.code(201).send();
}
