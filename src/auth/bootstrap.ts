import { randomBytes } from 'node:crypto';
import type { ResourceTables } from '../store/index.js';
import { hashPassword } from './passwords.js';

const ADMIN_USER = 'admin';

/** On first start, the `admin` user (group cluster-admins): its password from the environment, else generated and handed to `deliver` once. */
export async function ensureAdmin(store: ResourceTables, env: NodeJS.ProcessEnv, deliver: (user: string, password: string) => void): Promise<void> {
  if (store.userCount() > 0) return;
  const given = env.CHECKBRIDGE_ADMIN_PASSWORD;
  const password = given && given.length > 0 ? given : randomBytes(18).toString('base64url');
  store.putUser(ADMIN_USER, { username: ADMIN_USER, groups: ['cluster-admins'], password_hash: await hashPassword(password) });
  if (!given) deliver(ADMIN_USER, password);
}

const AGENT_USER = 'agent';
/** Sensu Go's agent role: what a connected agent does, writing its entity and its events (backend/seeds). */
export const AGENT_ROLE = 'system:agent';
export const AGENT_GROUP = 'system:agents';

/**
 * On first start of the agent listener: the `system:agent` ClusterRole bound to group `system:agents`, and the `agent`
 * user in it. Its password from CHECKBRIDGE_AGENT_PASSWORD, else generated and shown once: never a published default.
 */
export async function ensureAgentUser(store: ResourceTables, env: NodeJS.ProcessEnv, deliver: (user: string, password: string) => void): Promise<void> {
  // Seeded as Sensu Go seeds them: no created_by; every verb on events, all an agent's session is checked for.
  const meta = { name: AGENT_ROLE };
  if (!store.getResource('ClusterRole', '', AGENT_ROLE))
    store.putResource('ClusterRole', '', AGENT_ROLE, {
      rules: [{ verbs: ['*'], resources: ['events'], resource_names: null }],
      metadata: meta,
    });
  if (!store.getResource('ClusterRoleBinding', '', AGENT_ROLE)) {
    store.putResource('ClusterRoleBinding', '', AGENT_ROLE, {
      subjects: [{ type: 'Group', name: AGENT_GROUP }],
      role_ref: { type: 'ClusterRole', name: AGENT_ROLE },
      metadata: meta,
    });
  }
  if (store.getUser(AGENT_USER)) return;
  const given = env.CHECKBRIDGE_AGENT_PASSWORD;
  const password = given && given.length > 0 ? given : randomBytes(18).toString('base64url');
  store.putUser(AGENT_USER, { username: AGENT_USER, groups: [AGENT_GROUP], password_hash: await hashPassword(password) });
  if (!given) deliver(AGENT_USER, password);
}
