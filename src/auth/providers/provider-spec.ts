// Authentication providers (api_version authentication/v2): validation, defaults, and the view that hides secrets.
import { CREDENTIAL_MASK, keepCredential, type Credential, type CredentialDestination } from '../../secrets/index.js';
import type { Json } from '../../json.js';

const PROVIDER_API_VERSION = 'authentication/v2';
export const PROVIDER_TYPES = ['ldap', 'ad', 'oidc'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];
const SECURITY = ['tls', 'starttls', 'insecure'] as const;
/** What a secret reads as in every response; sent back unchanged in a PUT, it keeps the stored secret. */
const SECRET_MASK = CREDENTIAL_MASK;

export interface Search {
  readonly base_dn: string;
  readonly attribute: string;
  readonly name_attribute: string;
  readonly object_class: string;
}

export interface LdapServer {
  readonly host: string;
  readonly port: number;
  readonly insecure: boolean;
  readonly security: (typeof SECURITY)[number];
  readonly binding: { readonly user_dn: string; readonly password: string };
  readonly client_cert_file: string;
  readonly client_key_file: string;
  readonly trusted_ca_file: string;
  readonly default_upn_domain: string;
  readonly group_search: Search;
  readonly user_search: Search;
}

export interface LdapSpec {
  readonly groups_prefix: string;
  readonly username_prefix: string;
  readonly servers: LdapServer[];
}

export interface OidcSpec {
  readonly additional_scopes: string[];
  readonly client_id: string;
  readonly client_secret: string;
  readonly disable_offline_access: boolean;
  readonly groups_claim: string;
  readonly groups_prefix: string;
  readonly redirect_uri: string;
  readonly server: string;
  readonly username_claim: string;
  readonly username_prefix: string;
}

export interface Provider {
  readonly type: ProviderType;
  readonly api_version: string;
  readonly metadata: { readonly name: string; readonly created_by?: string };
  readonly spec: LdapSpec | OidcSpec;
}

// Sensu Go's documented defaults: OpenLDAP's inetOrgPerson/groupOfNames, and Active Directory's sAMAccountName.
const SEARCH_DEFAULTS: Record<'ldap' | 'ad', { user: Omit<Search, 'base_dn'>; group: Omit<Search, 'base_dn'> }> = {
  ldap: {
    user: { attribute: 'uid', name_attribute: 'cn', object_class: 'person' },
    group: { attribute: 'member', name_attribute: 'cn', object_class: 'groupOfNames' },
  },
  ad: {
    user: { attribute: 'sAMAccountName', name_attribute: 'displayName', object_class: 'person' },
    group: { attribute: 'member', name_attribute: 'cn', object_class: 'group' },
  },
};

class Invalid extends Error {}
const str = (value: unknown, field: string, fallback = ''): string => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw new Invalid(`${field} must be a string`);
  return value;
};
const required = (value: unknown, field: string): string => {
  const s = str(value, field);
  if (s === '') throw new Invalid(`${field} is required`);
  return s;
};
const bool = (value: unknown, field: string): boolean => {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new Invalid(`${field} must be a boolean`);
  return value;
};
const object = (value: unknown, field: string): Json => {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new Invalid(`${field} must be an object`);
  return value as Json;
};
const url = (value: unknown, field: string, optional = false): string => {
  const s = optional ? str(value, field) : required(value, field);
  if (s !== '' && !/^https?:\/\//.test(s)) throw new Invalid(`${field} must be an http or https URL`);
  if (s !== '' && !URL.canParse(s)) throw new Invalid(`${field} is not a valid URL`);
  return s;
};

function search(value: unknown, field: string, defaults: Omit<Search, 'base_dn'>): Search {
  const s = object(value, field);
  return {
    base_dn: required(s.base_dn, `${field}.base_dn`),
    attribute: str(s.attribute, `${field}.attribute`) || defaults.attribute,
    name_attribute: str(s.name_attribute, `${field}.name_attribute`) || defaults.name_attribute,
    object_class: str(s.object_class, `${field}.object_class`) || defaults.object_class,
  };
}

/** Where an LDAP server's bind credentials go, and whom they trust there: a REDACTED password follows none of these changing. */
function ldapTargets(
  field: string,
  previous: LdapServer,
  next: Omit<LdapServer, 'binding' | 'default_upn_domain' | 'group_search' | 'user_search'>,
): CredentialDestination[] {
  const at = (name: keyof typeof next, same?: CredentialDestination['same']): CredentialDestination => ({
    field: `${field}.${name}`,
    before: previous[name],
    after: next[name],
    ...(same ? { same } : {}),
  });
  const caseless = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();
  return [at('host', caseless), at('port'), at('security'), at('insecure'), at('trusted_ca_file'), at('client_cert_file'), at('client_key_file')];
}

/** A stored credential kept for a REDACTED one, or the refusal as an Invalid. */
function kept(credential: Credential, targets: readonly CredentialDestination[]): string {
  const result = keepCredential(credential, targets);
  if ('problem' in result) throw new Invalid(result.problem);
  return result.value;
}

function server(value: unknown, i: number, type: 'ldap' | 'ad', previous: LdapServer | undefined): LdapServer {
  const field = `spec.servers[${i}]`;
  const s = object(value, field);
  const security = str(s.security, `${field}.security`, 'tls');
  if (!(SECURITY as readonly string[]).includes(security)) throw new Invalid(`${field}.security must be one of ${SECURITY.join(', ')}`);
  const port = s.port ?? (security === 'tls' ? 636 : 389);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Invalid(`${field}.port must be an integer from 1 to 65535`);
  const binding = object(s.binding, `${field}.binding`);
  const given = str(binding.password, `${field}.binding.password`);
  const host = required(s.host, `${field}.host`);
  const insecure = bool(s.insecure, `${field}.insecure`);
  const client_cert_file = str(s.client_cert_file, `${field}.client_cert_file`);
  const client_key_file = str(s.client_key_file, `${field}.client_key_file`);
  if (Boolean(client_cert_file) !== Boolean(client_key_file)) throw new Invalid(`${field}.client_cert_file and client_key_file go together`);
  const trusted_ca_file = str(s.trusted_ca_file, `${field}.trusted_ca_file`);
  const next = { host, port, insecure, security: security as LdapServer['security'], client_cert_file, client_key_file, trusted_ca_file };
  // The mask sent back by a client that read the provider keeps the stored password (dump, then create -f), but only for the same server.
  const password = kept(
    { field: `${field}.binding.password`, what: 'the bind password', given, stored: previous?.binding.password },
    previous ? ldapTargets(field, previous, next) : [],
  );
  return {
    host,
    port,
    insecure,
    security: security as LdapServer['security'],
    binding: { user_dn: str(binding.user_dn, `${field}.binding.user_dn`), password },
    client_cert_file,
    client_key_file,
    trusted_ca_file,
    default_upn_domain: str(s.default_upn_domain, `${field}.default_upn_domain`),
    group_search: search(s.group_search, `${field}.group_search`, SEARCH_DEFAULTS[type].group),
    user_search: search(s.user_search, `${field}.user_search`, SEARCH_DEFAULTS[type].user),
  };
}

function ldapSpec(spec: Json, type: 'ldap' | 'ad', previous: LdapSpec | undefined): LdapSpec {
  if (!Array.isArray(spec.servers) || spec.servers.length === 0) throw new Invalid('spec.servers must be a non-empty array');
  return {
    groups_prefix: str(spec.groups_prefix, 'spec.groups_prefix'),
    username_prefix: str(spec.username_prefix, 'spec.username_prefix'),
    servers: spec.servers.map((s: unknown, i: number) => server(s, i, type, previous?.servers[i])),
  };
}

function oidcSpec(spec: Json, previous: OidcSpec | undefined): OidcSpec {
  const scopes = spec.additional_scopes ?? [];
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || s === '')) throw new Invalid('spec.additional_scopes must be a list of strings');
  const given = required(spec.client_secret, 'spec.client_secret');
  const server = url(spec.server, 'spec.server');
  // The stored client secret goes only to the server it was given for.
  const secret = kept(
    { field: 'spec.client_secret', what: 'the client secret', given, stored: previous?.client_secret },
    previous ? [{ field: 'spec.server', before: previous.server, after: server }] : [],
  );
  if (secret === '') throw new Invalid('spec.client_secret is required');
  return {
    additional_scopes: scopes,
    client_id: required(spec.client_id, 'spec.client_id'),
    client_secret: secret,
    disable_offline_access: bool(spec.disable_offline_access, 'spec.disable_offline_access'),
    groups_claim: str(spec.groups_claim, 'spec.groups_claim'),
    groups_prefix: str(spec.groups_prefix, 'spec.groups_prefix'),
    redirect_uri: url(spec.redirect_uri, 'spec.redirect_uri', true),
    server,
    username_claim: required(spec.username_claim, 'spec.username_claim'),
    username_prefix: str(spec.username_prefix, 'spec.username_prefix'),
  };
}

/**
 * A provider from a PUT body (`Type` as Sensu Go's documented request spells it; routes fold other cases), with every field present and
 * defaults filled in; `previous` is the stored one, whose secrets a masked value keeps. Throws a message naming the field.
 */
export function parseProvider(body: unknown, name: string, previous: Provider | null): Provider | string {
  try {
    const b = object(body, 'body');
    if (b.Type === undefined) throw new Invalid('Type is required');
    const type = str(b.Type, 'Type').toLowerCase();
    if (!(PROVIDER_TYPES as readonly string[]).includes(type)) throw new Invalid(`Type must be one of ${PROVIDER_TYPES.join(', ')}`);
    if (b.api_version !== PROVIDER_API_VERSION) throw new Invalid(`api_version must be ${PROVIDER_API_VERSION}`);
    const metadata = object(b.metadata, 'metadata');
    const given = required(metadata.name, 'metadata.name');
    if (given !== name) throw new Invalid(`the name of the resource (${given}) does not match the name of the URI (${name})`);
    if (metadata.namespace) throw new Invalid('authentication providers are cluster-wide: metadata.namespace must be empty');
    if (b.spec === undefined || b.spec === null) throw new Invalid('spec is required');
    const spec = object(b.spec, 'spec');
    const before = previous?.type === type ? previous.spec : undefined;
    const parsed = type === 'oidc' ? oidcSpec(spec, before as OidcSpec | undefined) : ldapSpec(spec, type as 'ldap' | 'ad', before as LdapSpec | undefined);
    return { type: type as ProviderType, api_version: PROVIDER_API_VERSION, metadata: { name }, spec: parsed };
  } catch (error) {
    if (error instanceof Invalid) return error.message;
    throw error;
  }
}

const mask = (secret: string) => (secret === '' ? '' : SECRET_MASK);

/** What every response shows: the stored provider with its secrets masked. */
export function providerView(p: Provider): Provider {
  if (p.type === 'oidc') return { ...p, spec: { ...(p.spec as OidcSpec), client_secret: mask((p.spec as OidcSpec).client_secret) } };
  const spec = p.spec as LdapSpec;
  return { ...p, spec: { ...spec, servers: spec.servers.map((s) => ({ ...s, binding: { ...s.binding, password: mask(s.binding.password) } })) } };
}
