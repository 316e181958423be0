// Resources outside core/v2 that `create -f` and `dump` handle: the event store's PostgresConfig (store/v1).
import type { Json } from '../json.js';

const PROVIDER = '/api/enterprise/store/v1/provider';
const NAMES = new Set(['store/v1.PostgresConfig', 'PostgresConfig']);

/** The PUT of a wrapped store/v1 resource, or null when it is not one. */
export function enterprisePut(resource: Json): { url: string; body: Json; name: string } | null {
  if (resource.type !== 'PostgresConfig' || resource.api_version !== 'store/v1') return null;
  const name = String(resource.metadata?.name ?? '');
  return { url: `${PROVIDER}/${encodeURIComponent(name)}`, body: resource, name };
}

/** The list URL of a dump type (`store/v1.PostgresConfig`); its items are already wrapped. */
export function enterpriseList(type: string): string | null {
  return NAMES.has(type) ? PROVIDER : null;
}
