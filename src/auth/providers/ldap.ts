import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { Client, Filter } from 'ldapts';

// The LDAP client loads with the first directory sign-in: a daemon without a directory never parses it.
let ldapts: Promise<typeof import('ldapts')> | undefined;
const loadLdapts = () => (ldapts ??= import('ldapts'));
import type { LdapServer, LdapSpec, ProviderType } from './provider-spec.js';
import { checkServerIdentity } from '../../tls/index.js';

/** Who logged in: the name as the directory holds it, the groups read from the directory (both still without prefixes). */
export interface DirectoryUser {
  readonly name: string;
  readonly groups: string[];
}

/** Why one server did not authenticate the user: a refusal (wrong password, unknown user) or a failure to ask. */
class LdapRefusal extends Error {}

// Generous but bounded: a dead server must not hold a login for long before the next one is tried.
const TIMEOUT_MS = 5000;

function tlsOptions(server: LdapServer): ConnectionOptions {
  return {
    servername: server.host,
    rejectUnauthorized: !server.insecure,
    checkServerIdentity,
    ...(server.trusted_ca_file ? { ca: readFileSync(server.trusted_ca_file) } : {}),
    ...(server.client_cert_file ? { cert: readFileSync(server.client_cert_file), key: readFileSync(server.client_key_file) } : {}),
  };
}

async function connect(server: LdapServer): Promise<Client> {
  const { Client } = await loadLdapts();
  const scheme = server.security === 'tls' ? 'ldaps' : 'ldap';
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  const client = new Client({
    url: `${scheme}://${host}:${server.port}`,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    strictDN: false,
    ...(scheme === 'ldaps' ? { tlsOptions: tlsOptions(server) } : {}),
  });
  if (server.security === 'starttls') await client.startTLS(tlsOptions(server));
  return client;
}

const text = (value: unknown): string => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

/** A login name as directories compare names (caseIgnoreMatch, insignificant spaces): `Bob`, `BOB`, ` bob` are one. */
export const foldLoginName = (name: string): string => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

const first = (value: unknown): string | null => {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v === null ? null : text(v);
};

/**
 * The login name the directory is asked about: Active Directory with `default_upn_domain` searches the user
 * principal name (`name@domain`, unless one was typed); otherwise the name as typed.
 */
function searchTerm(type: ProviderType, server: LdapServer, name: string): { attribute: string; value: string } {
  if (type === 'ad' && (server.default_upn_domain || name.includes('@'))) {
    return { attribute: 'userPrincipalName', value: name.includes('@') ? name : `${name}@${server.default_upn_domain}` };
  }
  return { attribute: server.user_search.attribute, value: name };
}

/**
 * The user's name as the directory holds it (the searched attribute's value that matched, not the spelling typed),
 * so every spelling the directory accepts is one user; an AD principal name in `default_upn_domain` without it.
 */
function storedName(entry: Record<string, unknown>, term: { attribute: string; value: string }, server: LdapServer): string {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === term.attribute.toLowerCase());
  const values = key === undefined ? [] : [entry[key]].flat().map(text);
  // The directory matched this entry by this attribute: when no value folds here as the typed name (the directory
  // folds `İ` to `i`, JavaScript to `i̇`), its first value still names the user, never the spelling typed.
  const name = values.find((v) => foldLoginName(v) === foldLoginName(term.value)) ?? values[0] ?? term.value;
  const domain = server.default_upn_domain ? `@${server.default_upn_domain}`.toLowerCase() : '';
  const trimmed = name.trim();
  return domain && term.attribute === 'userPrincipalName' && trimmed.toLowerCase().endsWith(domain) ? trimmed.slice(0, -domain.length) : trimmed;
}

/** One server: bind as the service account, find the user, bind as the user, read their groups. */
async function tryServer(type: ProviderType, server: LdapServer, name: string, password: string): Promise<DirectoryUser> {
  const client = await connect(server);
  const { AndFilter, EqualityFilter, InvalidCredentialsError } = await loadLdapts();
  try {
    if (server.binding.user_dn) await client.bind(server.binding.user_dn, server.binding.password);
    const term = searchTerm(type, server, name);
    // Filters built from values, never from text: a name like `*)(uid=*` is only a name.
    const userFilter: Filter = new AndFilter({
      filters: [new EqualityFilter({ attribute: 'objectClass', value: server.user_search.object_class }), new EqualityFilter(term)],
    });
    const { searchEntries: users } = await client.search(server.user_search.base_dn, {
      scope: 'sub',
      filter: userFilter,
      attributes: ['dn', term.attribute],
      sizeLimit: 2,
    });
    if (users.length !== 1) throw new LdapRefusal(users.length === 0 ? 'user not found' : 'user name is not unique');
    const userDn = users[0]!.dn;
    try {
      await client.bind(userDn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError) throw new LdapRefusal('invalid credentials');
      throw error;
    }
    // Groups are read as the service account when there is one (a user may not read group entries).
    if (server.binding.user_dn) await client.bind(server.binding.user_dn, server.binding.password);
    const groupFilter = new AndFilter({
      filters: [
        new EqualityFilter({ attribute: 'objectClass', value: server.group_search.object_class }),
        new EqualityFilter({ attribute: server.group_search.attribute, value: userDn }),
      ],
    });
    const { searchEntries: groups } = await client.search(server.group_search.base_dn, {
      scope: 'sub',
      filter: groupFilter,
      attributes: [server.group_search.name_attribute],
    });
    return {
      name: storedName(users[0]!, term, server),
      groups: groups
        .map((g) => first(g[server.group_search.name_attribute]))
        .filter((g): g is string => g !== null)
        .sort(),
    };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/**
 * Authenticates against the provider's servers in order: the first that answers decides. A server that cannot be
 * reached (or fails mid-way) passes to the next; a refusal (unknown user, wrong password) also does, since the
 * servers may hold different directories. Null when no server accepts; `onFailure` hears why each did not.
 */
export async function ldapAuthenticate(
  type: ProviderType,
  spec: LdapSpec,
  name: string,
  password: string,
  onFailure: (server: string, reason: string) => void,
): Promise<DirectoryUser | null> {
  // An empty password is an unauthenticated bind, which LDAP servers accept: never a login.
  if (password === '' || name.trim() === '') return null;
  for (const server of spec.servers) {
    try {
      return await tryServer(type, server, name.trim(), password);
    } catch (error) {
      onFailure(`${server.host}:${server.port}`, error instanceof LdapRefusal ? error.message : `${(error as Error).name}: ${(error as Error).message}`);
    }
  }
  return null;
}
