// `create -f` and `dump` for secrets/v1 resources: wrapped on the wire.
import { API_VERSION, ENV_TYPE, EXTERNAL_TYPE, VAULT_ALIAS, SECRET_KIND } from './model.js';
import type { Json } from '../json.js';

const BASE = '/api/enterprise/secrets/v1';
const PROVIDER_TYPES = new Set([ENV_TYPE, EXTERNAL_TYPE, VAULT_ALIAS]);

/** Whether a resource from a file is a secrets/v1 one (by its api_version, or by a type only secrets/v1 has). */
export const isSecretsResource = (resource: Json) => resource.api_version === API_VERSION || PROVIDER_TYPES.has(resource.type) || resource.type === SECRET_KIND;

/** The PUT for one secrets/v1 resource, or why it cannot be sent (type, api_version and spec are required). */
export function secretsPut(resource: Json, defaultNamespace: string): { url: string; body: Json; namespace: string } | { error: string } {
  if (resource.api_version !== API_VERSION) return { error: `api_version is required and must be ${API_VERSION}` };
  if (typeof resource.type !== 'string' || resource.type === '') return { error: 'type is required' };
  if (resource.spec === undefined || resource.spec === null) return { error: 'no spec provided' };
  const metadata = { ...(resource.metadata ?? {}) } as Json;
  const name = encodeURIComponent(String(metadata.name ?? ''));
  if (PROVIDER_TYPES.has(resource.type)) return { url: `${BASE}/providers/${name}`, body: { ...resource, metadata }, namespace: '' };
  if (resource.type !== SECRET_KIND) return { error: `unknown type ${API_VERSION}.${resource.type}` };
  metadata.namespace ||= defaultNamespace;
  return {
    url: `${BASE}/namespaces/${encodeURIComponent(metadata.namespace)}/secrets/${name}`,
    body: { ...resource, metadata },
    namespace: metadata.namespace,
  };
}

/** `dump` names for the secrets/v1 lists, and where each is read (already wrapped). */
export function secretsDumpUrl(want: string, namespace: string): string | null {
  if (
    want === 'providers' ||
    want === `${API_VERSION}.Provider` ||
    want === `${API_VERSION}.${ENV_TYPE}` ||
    want === `${API_VERSION}.${EXTERNAL_TYPE}` ||
    want === `${API_VERSION}.${VAULT_ALIAS}`
  )
    return `${BASE}/providers`;
  if (want === 'secrets' || want === `${API_VERSION}.${SECRET_KIND}`) return `${BASE}/namespaces/${encodeURIComponent(namespace)}/secrets`;
  return null;
}

export const SECRETS_DUMP_TYPES = ['providers', 'secrets'];
