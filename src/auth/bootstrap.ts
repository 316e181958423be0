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
