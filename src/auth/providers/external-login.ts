import type { Logger } from 'pino';
import type { ResourceTables } from '../../store/index.js';
import { listProviders, getProvider } from './store.js';
import { ldapAuthenticate, foldLoginName } from './ldap.js';
import type { LdapSpec, Provider } from './provider-spec.js';
import type { Json } from '../../json.js';

/** A user of an external provider is recorded by name with that provider, never with a password. */
export const isExternal = (user: Json) => typeof user.provider === 'string' && user.provider !== '' && user.provider !== 'basic';

/** Not disabled, and, for an external user, their provider still configured (deleting it ends their access). */
export function isActive(v2: ResourceTables, user: Json | null): user is Json {
  return Boolean(user && !user.disabled && (!isExternal(user) || getProvider(v2, String(user.provider))));
}

/**
 * A disabled external user whose name differs from `username` only as directories do not tell names apart (case,
 * spaces): records an earlier version made for another spelling of the same person.
 */
function disabledTwin(v2: ResourceTables, prefix: string, username: string): Json | null {
  const folded = foldLoginName(username.slice(prefix.length));
  return (
    v2
      .listUsers()
      .find((u) => u.disabled && isExternal(u) && String(u.username).startsWith(prefix) && foldLoginName(String(u.username).slice(prefix.length)) === folded) ??
    null
  );
}

/**
 * Records a user authenticated by `provider`: `username_prefix + name` with `groups_prefix + group`. Refused (null)
 * when the name belongs to a local user (a directory must not take over a local account) or is disabled, under this
 * spelling or another one of the same name: a disabled user stays disabled.
 */
export function recordExternalUser(v2: ResourceTables, logger: Logger, provider: Provider, name: string, groups: string[]): Json | null {
  const spec = provider.spec as { username_prefix: string; groups_prefix: string };
  const username = spec.username_prefix + name;
  const existing = v2.getUser(username);
  if (existing && !isExternal(existing)) {
    logger.warn({ user: username, provider: provider.metadata.name }, 'external login refused: a local user has that name');
    return null;
  }
  if (existing?.disabled) return null;
  const twin = existing ? null : disabledTwin(v2, spec.username_prefix, username);
  if (twin) {
    logger.warn(
      { user: username, disabled: twin.username, provider: provider.metadata.name },
      'external login refused: the user is disabled under another spelling of the name',
    );
    return null;
  }
  const user = { username, groups: groups.map((g) => spec.groups_prefix + g), disabled: false, provider: provider.metadata.name, provider_type: provider.type };
  v2.putUser(username, user);
  return user;
}

/** Basic credentials checked against each LDAP or AD provider in name order; the user record, or null. */
export async function directoryLogin(v2: ResourceTables, logger: Logger, name: string, password: string): Promise<Json | null> {
  for (const provider of listProviders(v2).filter((p) => p.type === 'ldap' || p.type === 'ad')) {
    const found = await ldapAuthenticate(provider.type, provider.spec as LdapSpec, name, password, (server, reason) =>
      logger.info({ provider: provider.metadata.name, server, user: name, reason }, 'LDAP authentication failed'),
    );
    if (found) return recordExternalUser(v2, logger, provider, found.name, found.groups);
  }
  return null;
}
