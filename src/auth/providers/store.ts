import type { ResourceTables } from '../../store/index.js';
import type { Provider } from './provider-spec.js';

// Providers live in the generic resource table, cluster-wide (namespace ''), secrets included: they are needed to bind.
const AUTH_PROVIDER_TYPE = 'AuthProvider' as const;

export const getProvider = (v2: ResourceTables, name: string) => v2.getResource(AUTH_PROVIDER_TYPE, '', name);
export const putProvider = (v2: ResourceTables, provider: Provider) => v2.putResource(AUTH_PROVIDER_TYPE, '', provider.metadata.name, provider);
export const deleteProvider = (v2: ResourceTables, name: string) => v2.deleteResource(AUTH_PROVIDER_TYPE, '', name);
export const listProviders = (v2: ResourceTables) => v2.listResources(AUTH_PROVIDER_TYPE, '');

// The store reads AuthProvider rows as Provider (written only by putProvider).
declare module '../../store/stored-kinds.js' {
  interface StoredKinds {
    AuthProvider: Provider;
  }
}
