import type { ResourceTables } from '../../store/index.js';
import type { Provider } from './provider-spec.js';

// Providers live in the generic resource table, cluster-wide (namespace ''), secrets included: they are needed to bind.
const KIND = 'AuthProvider';

export const getProvider = (v2: ResourceTables, name: string) => v2.getResource(KIND, '', name) as unknown as Provider | null;
export const putProvider = (v2: ResourceTables, provider: Provider) =>
  v2.putResource(KIND, '', provider.metadata.name, provider as unknown as Record<string, unknown>);
export const deleteProvider = (v2: ResourceTables, name: string) => v2.deleteResource(KIND, '', name);
export const listProviders = (v2: ResourceTables) => v2.listResources(KIND, '') as unknown as Provider[];
