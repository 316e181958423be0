// Runtime assets: definitions, the host's entity, download and cache, and the paths executions get.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { ResourceTables } from '../store/index.js';
import { hostSystem } from './host-system.js';
import { AssetCache } from './cache.js';
import { assetLimitsOf } from './limits.js';
import { RuntimeAssets, type AssetLookup, type AssetResolver } from './runtime.js';
import { assetSettingsOf, configuredAssets, legacyNamespace } from '../config/index.js';
import type { Json } from '../json.js';

export { withAssets, type AssetResolver } from './runtime.js';
export { assetProblem, runtimeAssetsProblem } from './definitions.js';

const stringsOf = (value: unknown): Record<string, string> => {
  const out: Record<string, string> = Object.create(null);
  if (value && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
};

/** The local client as the entity asset filters read: name, labels, subscriptions, and the host's `system`. */
function localEntity(settings: Settings, namespace: string): Json {
  const client = settings.client as Record<string, unknown>;
  return {
    metadata: { name: String(client.name), namespace, labels: stringsOf(client.labels) },
    entity_class: 'agent',
    subscriptions: [...settings.client.subscriptions],
    system: hostSystem(),
  };
}

/** conf.d's top-level `assets` category. */
function legacyAssets(settings: Settings): AssetLookup {
  const assets = configuredAssets(settings) as Record<string, Json>;
  return (name) => (Object.hasOwn(assets, name) ? assets[name]! : null);
}

/** A namespace's Asset resources. */
function v2Assets(store: ResourceTables, namespace: string): AssetLookup {
  return (name) => store.getResource('Asset', namespace, name);
}

export interface DaemonAssets {
  /** For legacy checks, hooks, handlers and mutators: conf.d `assets`. */
  readonly legacy: (settings: Settings) => AssetResolver;
  /** For v2 handlers and mutators: the namespace's Asset resources. */
  readonly v2: (store: ResourceTables, namespace: string) => AssetResolver;
}

/** The daemon's assets: cached under `<state>/assets`, filtered against the local client's entity. */
export function daemonAssets(stateDir: string, current: () => Settings, logger: Logger): DaemonAssets {
  const cache = new AssetCache(
    join(stateDir, 'assets'),
    logger.child({ component: 'assets' }),
    () => assetSettingsOf(current()).trusted_ca_file,
    () => assetLimitsOf(assetSettingsOf(current())),
  );
  const runtime = new RuntimeAssets(cache, () => localEntity(current(), legacyNamespace(current())), logger.child({ component: 'assets' }));
  return { legacy: (settings) => runtime.resolver(legacyAssets(settings)), v2: (store, ns) => runtime.resolver(v2Assets(store, ns), ns) };
}
