import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, type V2ApiDeps } from './context.js';
import { isSensuName, sensuNameProblem } from '../../rules/index.js';
import { verifyPassword } from '../../auth/index.js';
import { listResponse } from './listing.js';
import { USER_FIELDS } from '../../v2/index.js';
import { isExternal } from '../../auth/index.js';
import { heldUserProblem, isClusterAdmin, membershipProblem, otherUserProblem, type GrantView } from '../../auth/index.js';
import { rbacView, RBAC_TYPE } from './rbac-store.js';
import { changePassword, changePasswordFromWeb, resetPassword, externalMessage, storedHashOf } from './password-change.js';
import { isPlainObject } from '../../config/index.js';
import type { StoredUser } from '../../store/index.js';

/** A user body as sent: an object whose fields are checked where they are read. */
type UserBody = Record<string, unknown>;

/** A user as saveUser stores it: groups and disabled always set. */
type SavedUser = StoredUser & { groups: string[]; disabled: boolean };

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** What the API shows of a user: never a password or its hash. */
const view = (user: StoredUser) => ({ username: user.username, groups: user.groups ?? [], disabled: Boolean(user.disabled) });

/** The RBAC view and every namespace holding role bindings: what the membership rule reads. */
const grantViewOf = (deps: V2ApiDeps): GrantView => ({
  rbac: rbacView(deps.store.resources),
  bindingNamespaces: deps.store.resources.namespacesWith(RBAC_TYPE.roleBinding),
});

/** Why this create or update is not the caller's to make (nobody grants what they do not hold), or null. */
function privilegeProblem(
  request: FastifyRequest,
  deps: V2ApiDeps,
  name: string,
  existing: StoredUser | null,
  body: UserBody,
  user: SavedUser,
): { kind: 'forbidden' | 'invalid'; message: string } | null {
  const caller = callerOf(request);
  const grants = grantViewOf(deps);
  const held = new Set<string>(existing?.groups ?? []);
  const added = user.groups.filter((g) => !held.has(g));
  const membership = membershipProblem(grants, caller, name, added, !existing);
  if (membership) return { kind: 'forbidden', message: membership };
  if (existing && (body.password !== undefined || body.password_hash !== undefined)) {
    // Your own password needs your current one; another user's is a cluster admin's reset.
    if (name === caller.username)
      return { kind: 'invalid', message: `to change your own password use PUT /api/core/v2/users/${name}/password with the current password` };
    const other = otherUserProblem(grants.rbac, caller, name, 'reset the password of');
    if (other) return { kind: 'forbidden', message: other };
  }
  if (existing && (existing.provider ?? 'basic') !== (user.provider ?? 'basic') && !isClusterAdmin(grants.rbac, caller)) {
    return {
      kind: 'forbidden',
      message: `unauthorized to perform action: user "${caller.username}" may not change the authentication provider of user "${name}": only cluster admins may`,
    };
  }
  if (existing) {
    // Disabling, re-enabling or otherwise changing someone who holds more than the caller is a cluster admin's.
    const action = Boolean(existing.disabled) === user.disabled ? 'change' : user.disabled ? 'disable' : 're-enable';
    const held = heldUserProblem(grants, caller, name, existing.groups ?? [], action);
    if (held) return { kind: 'forbidden', message: held };
  }
  return null;
}

/** Creates or updates one user after checking the body, its password and the caller's privileges; ends sessions it invalidates. */
async function saveUser(
  deps: V2ApiDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  name: unknown,
  body: unknown,
  mode: 'create' | 'upsert',
  status?: number,
) {
  const v2 = deps.store.resources;
  if (!isPlainObject(body)) return fail(reply, 'invalid', 'request body must be a JSON object (user)');
  if (!isSensuName(name)) return fail(reply, 'invalid', sensuNameProblem(name, 'username')!);
  if (body.username !== undefined && body.username !== name)
    return fail(reply, 'invalid', `the name of the resource (${String(body.username)}) does not match the name of the URI (${name})`);
  const { groups, provider: sentProvider, disabled } = body;
  if (groups !== undefined && !isStringList(groups)) return fail(reply, 'invalid', 'groups must be a list of strings');
  if (sentProvider !== undefined && typeof sentProvider !== 'string') return fail(reply, 'invalid', 'provider must be a string');
  // As Sensu Go decodes a User: a boolean or null (false), never a string such as "false" read as true.
  if (disabled !== undefined && disabled !== null && typeof disabled !== 'boolean') return fail(reply, 'invalid', 'disabled must be a boolean');
  const existing = v2.getUser(name);
  if (existing && mode === 'create') return fail(reply, 'exists', 'resource already exists');
  const provider = sentProvider ?? existing?.provider;
  const external = isExternal({ provider });
  // External users have no local password: none is set, and a new one needs none.
  const setsPassword = body.password !== undefined || body.password_hash !== undefined;
  if (external && setsPassword) return fail(reply, 'invalid', externalMessage(name, provider));
  let hash: string | undefined;
  if ((!existing && !external) || setsPassword) {
    // A bcrypt password_hash (`sensuctl user hash-password`, a Sensu Go dump) is stored as given; with a password too, they must agree.
    const stored = await storedHashOf(body.password_hash !== undefined ? { bcrypt: body.password_hash } : { plain: body.password });
    if ('problem' in stored)
      return fail(
        reply,
        'invalid',
        body.password === undefined && body.password_hash === undefined ? 'a password or its hash (password_hash) is required' : stored.problem,
      );
    if (
      body.password_hash !== undefined &&
      body.password !== undefined &&
      !(typeof body.password === 'string' && (await verifyPassword(body.password, stored.hash)))
    ) {
      return fail(reply, 'invalid', 'hashed password does not match the cleartext password: send only one of password and password_hash');
    }
    hash = stored.hash;
  }
  const { password_hash: kept, ...rest } = existing ?? {};
  const user: SavedUser = {
    ...rest,
    username: name,
    groups: groups ?? existing?.groups ?? [],
    disabled: disabled === undefined ? Boolean(existing?.disabled) : Boolean(disabled),
    ...(provider !== undefined ? { provider } : {}),
  };
  const refused = privilegeProblem(request, deps, name, existing, body, user);
  if (refused) return fail(reply, refused.kind, refused.message);
  if (hash !== undefined) user.password_hash = hash;
  else if (!external && kept !== undefined) user.password_hash = kept;
  v2.putUser(name, user);
  if (existing && (setsPassword || user.disabled)) v2.deleteUserSessions(name);
  return reply
    .code(status ?? (existing ? 200 : 201))
    .type('application/json')
    .send();
}

/**
 * Local users: whoever RBAC lets (cluster-wide `users`) lists, creates (POST, or PUT
 * create-or-update) and disables them (DELETE); a user may always read themselves and change their own password
 * (access.ts). Nobody grants what they do not hold: groups whose bindings grant more than the caller holds, another
 * user's password and provider, and any change to a user holding more than the caller (disabling and re-enabling
 * included) are a cluster admin's. A change of password or a disabling ends the user's sessions.
 */
export function registerUserRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.resources;
  const save = (request: FastifyRequest, reply: FastifyReply, name: unknown, body: unknown, mode: 'create' | 'upsert') =>
    saveUser(deps, request, reply, name, body, mode);
  app.post('/api/core/v2/users', (request, reply) => {
    const body = request.body;
    return save(request, reply, isPlainObject(body) ? body.username : undefined, body, 'create');
  });
  app.put('/api/core/v2/users/:name', (request, reply) => save(request, reply, (request.params as { name: string }).name, request.body, 'upsert'));
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
    const held = heldUserProblem(grantViewOf(deps), callerOf(request), name, user.groups ?? [], 'disable');
    if (held) return fail(reply, 'forbidden', held);
    v2.putUser(name, { ...user, disabled: true });
    v2.deleteUserSessions(name);
    return reply.code(204).send();
  });
  app.put('/api/core/v2/users/:name/password', (request, reply) => changePassword(deps, request, reply));
  app.put('/api/core/v2/users/:name/change_password', (request, reply) => changePasswordFromWeb(deps, request, reply));
  app.put('/api/core/v2/users/:name/reset_password', (request, reply) => resetPassword(deps, request, reply));
  // sensuctl's `user reinstate`, `add-group`, `remove-group`, `remove-groups`: one change to an existing user, under the same rules.
  const change = (request: FastifyRequest, reply: FastifyReply, edit: (user: StoredUser, group: string) => UserBody) => {
    const { name, group } = request.params as { name: string; group?: string };
    const user = v2.getUser(name);
    // Sensu Go answers these changes as created (PUT) or emptied (DELETE), whatever the user was before.
    const status = request.method === 'DELETE' ? 204 : 201;
    return user ? saveUser(deps, request, reply, name, edit(user, group ?? ''), 'upsert', status) : fail(reply, 'notFound', 'not found');
  };
  app.put('/api/core/v2/users/:name/reinstate', (request, reply) => change(request, reply, () => ({ disabled: false })));
  app.put('/api/core/v2/users/:name/groups/:group', (request, reply) =>
    change(request, reply, (user, group) => ({ groups: [...new Set([...(user.groups ?? []), group])] })),
  );
  app.delete('/api/core/v2/users/:name/groups/:group', (request, reply) =>
    change(request, reply, (user, group) => ({ groups: (user.groups ?? []).filter((g) => g !== group) })),
  );
  app.delete('/api/core/v2/users/:name/groups', (request, reply) => change(request, reply, () => ({ groups: [] })));
}
