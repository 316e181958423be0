// Secrets resources: providers are cluster-wide, secrets namespaced.
import { parseDuration } from '../time/index.js';
import { CREDENTIAL_MASK } from './kept-credential.js';
import type { Json } from '../json.js';

export const API_VERSION = 'secrets/v1';
/** Store kinds (v2_resources.kind); providers live in namespace ''. */
export const PROVIDER_KIND = 'SecretsProvider';
export const SECRET_KIND = 'Secret';
export const ENV_TYPE = 'Env';
export const EXTERNAL_TYPE = 'ExternalProvider';
/** Sensu Go's name for the same provider (every Sensu Go user's YAML, the official Python client): read as ExternalProvider. */
export const VAULT_ALIAS = 'VaultProvider';
/** A provider type as stored: the alias becomes the canonical type; anything else is kept (and judged by providerProblem). */
export const canonicalProviderType = (type: unknown) => (type === VAULT_ALIAS ? EXTERNAL_TYPE : type);
export const ENV_PROVIDER_NAME = 'env';
export const REDACTED = CREDENTIAL_MASK;

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_TIMEOUT = '60s';

/** The v2 kinds whose commands take `secrets`. */
export const SECRET_USERS: ReadonlySet<string> = new Set(['CheckConfig', 'HookConfig', 'Handler', 'Mutator']);

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

export interface VaultClientSpec {
  readonly address: string;
  readonly token: string;
  readonly version: 'v1' | 'v2';
  readonly max_retries: number;
  readonly timeout: string;
  /** null: none, as Go reads it into its TLS pointer. */
  readonly tls?: { ca_cert?: string; client_cert?: string; client_key?: string; cname?: string } | null;
  readonly rate_limiter?: { limit?: number; burst?: number };
}

/** A secrets provider as stored (cluster-wide): the Env provider's spec is empty, an ExternalProvider's holds its vault client. */
export interface SecretsProvider {
  readonly type: string;
  readonly api_version: string;
  /** As sent, with its name, no namespace and its creator: nothing else in it is checked. */
  readonly metadata: Record<string, unknown>;
  readonly spec: { readonly client?: VaultClientSpec };
}

/** A secret as stored (namespaced): the id it names at a provider. */
export interface SecretReference {
  readonly type: string;
  readonly api_version: string;
  /** As sent, with its name, namespace and creator: nothing else in it is checked. */
  readonly metadata: Record<string, unknown>;
  readonly spec: { readonly id: string; readonly provider: string };
}

const CLIENT_KEYS = new Set(['address', 'token', 'version', 'max_retries', 'timeout', 'tls', 'rate_limiter']);
const TLS_KEYS = new Set(['ca_cert', 'client_cert', 'client_key', 'cname']);
const LIMITER_KEYS = new Set(['limit', 'burst']);

function unknownKey(value: Json, known: ReadonlySet<string>, where: string): string | null {
  const extra = Object.keys(value).find((key) => !known.has(key));
  return extra === undefined ? null : `unknown field ${where}.${extra}`;
}

/** The first reason an ExternalProvider `spec.client` is refused, or null. */
function vaultClientProblem(client: unknown): string | null {
  if (!isObject(client)) return 'spec.client is required';
  const extra = unknownKey(client, CLIENT_KEYS, 'spec.client');
  if (extra) return extra;
  if (!nonEmpty(client.address)) return 'spec.client.address is required';
  let url: URL;
  try {
    url = new URL(client.address);
  } catch {
    return 'spec.client.address must be a URL';
  }
  if (url.protocol === 'http:') return 'spec.client.address: the vault works only over TLS; use an https:// address';
  if (url.protocol !== 'https:') return 'spec.client.address must be an https:// URL';
  if (!nonEmpty(client.token)) return 'spec.client.token is required';
  if (client.version !== 'v1' && client.version !== 'v2') return 'spec.client.version must be v1 or v2';
  if (client.max_retries !== undefined && !(Number.isInteger(client.max_retries) && client.max_retries >= 0))
    return 'spec.client.max_retries must be a non-negative integer';
  if (client.timeout !== undefined && !(typeof client.timeout === 'string' && (parseDuration(client.timeout) ?? 0) > 0))
    return 'spec.client.timeout must be a duration such as 20s';
  // null as Go reads it into its TLS pointer: none, as reads serve it.
  if (client.tls !== undefined && client.tls !== null) {
    if (!isObject(client.tls)) return 'spec.client.tls must be a map';
    const tlsExtra = unknownKey(client.tls, TLS_KEYS, 'spec.client.tls');
    if (tlsExtra) return tlsExtra;
    for (const key of TLS_KEYS) if (client.tls[key] !== undefined && typeof client.tls[key] !== 'string') return `spec.client.tls.${key} must be a string`;
    if ((client.tls.client_cert === undefined) !== (client.tls.client_key === undefined)) return 'spec.client.tls.client_cert and client_key go together';
  }
  if (client.rate_limiter !== undefined) {
    if (!isObject(client.rate_limiter)) return 'spec.client.rate_limiter must be a map';
    const limiterExtra = unknownKey(client.rate_limiter, LIMITER_KEYS, 'spec.client.rate_limiter');
    if (limiterExtra) return limiterExtra;
    const { limit, burst } = client.rate_limiter;
    if (limit !== undefined && !(typeof limit === 'number' && Number.isFinite(limit) && limit >= 0))
      return 'spec.client.rate_limiter.limit must be a non-negative number (requests per second)';
    if (burst !== undefined && !(Number.isInteger(burst) && burst >= 1)) return 'spec.client.rate_limiter.burst must be a positive integer';
  }
  return null;
}

/** The client spec as stored: defaults written in, so a GET shows what applies. */
export function withClientDefaults(client: Json): VaultClientSpec {
  return { ...client, max_retries: client.max_retries ?? DEFAULT_MAX_RETRIES, timeout: client.timeout ?? DEFAULT_TIMEOUT } as VaultClientSpec;
}

/** The first reason a wrapped provider body is refused (type, api_version and spec are required), or null. */
export function providerProblem(body: Json): string | null {
  if (typeof body.type !== 'string' || body.type === '') return 'type is required';
  if (body.api_version !== API_VERSION) return `api_version is required and must be ${API_VERSION}`;
  if (!isObject(body.spec)) return 'spec is required';
  if (isObject(body.metadata) && nonEmpty(body.metadata.namespace)) return 'secrets providers are cluster-wide: metadata.namespace is not allowed';
  if (body.type === ENV_TYPE) return Object.keys(body.spec).length === 0 ? null : 'the Env provider takes an empty spec';
  if (body.type === EXTERNAL_TYPE) {
    const extra = unknownKey(body.spec, new Set(['client']), 'spec');
    return extra ?? vaultClientProblem(body.spec.client);
  }
  return `type must be ${ENV_TYPE} or ${EXTERNAL_TYPE}`;
}

/** The first reason a wrapped Secret body is refused, or null. */
export function secretProblem(body: Json): string | null {
  if (body.type !== SECRET_KIND) return `type is required and must be ${SECRET_KIND}`;
  if (body.api_version !== API_VERSION) return `api_version is required and must be ${API_VERSION}`;
  if (!isObject(body.spec)) return 'spec is required';
  if (!nonEmpty(body.spec.id)) return 'spec.id is required';
  if (!nonEmpty(body.spec.provider)) return 'spec.provider is required';
  return null;
}

/** A provider as an API read shows it: the vault token is a credential and never leaves the server. */
export function providerForRead(provider: Json): Json {
  if (provider.type !== EXTERNAL_TYPE || !isObject(provider.spec?.client)) return provider;
  // `tls` always present (null without one), as Sensu Go serves its TLS pointer: clients index it unguarded.
  return { ...provider, spec: { ...provider.spec, client: { tls: null, ...provider.spec.client, token: REDACTED } } };
}

// The store reads these kinds as the types above (they are written only through this module's checks).
declare module '../store/stored-kinds.js' {
  interface StoredKinds {
    [PROVIDER_KIND]: SecretsProvider;
    [SECRET_KIND]: SecretReference;
  }
}
