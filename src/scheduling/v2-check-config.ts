// A v2 CheckConfig: where it is read, when it runs and the request it sends.
import type { timingOf } from '../schedule/index.js';
import { parseGoCron } from '../time/index.js';
import type { V2CheckRequest } from './check-request-targets.js';
import type { ResourceOf } from '../store/index.js';
import type { CheckConfig, Entity } from '../v2/index.js';
type Timing = ReturnType<typeof timingOf>;

/** Where CheckConfigs, HookConfigs, Assets and entities are read: the v2 resource tables (of any kind: read as the kind asked for). */
export interface CheckConfigSource {
  namespacesWith(kind: string): string[];
  listResources<K extends string>(kind: K, namespace: string): ResourceOf<K>[];
  getResource<K extends string>(kind: K, namespace: string, name: string): ResourceOf<K> | null;
  listEntities(namespace: string): Entity[];
  /** Changes with every resource write (over a shared store, any server's: a counter kept in the store). */
  readonly resourceGeneration: number;
}

/**
 * Cron, read as Sensu Go reads it (`@every D` is an interval of D), wins over an interval (the API refuses both; a
 * check stored before may hold both); an interval is phased on `namespace/name` as legacy phases on the name. A cron
 * Sensu Go refuses never runs: the problem says why.
 */
export function timingOfConfig(namespace: string, config: CheckConfig): Timing & { problem?: string } {
  const key = `${namespace}/${config.metadata?.name}`;
  if (config.cron) {
    const cron = parseGoCron(String(config.cron));
    if (cron.kind === 'invalid') return { kind: 'none', problem: `check cron string is invalid: ${cron.problem}` };
    return cron.kind === 'every' ? { kind: 'interval', intervalMs: cron.everyMs, key } : { kind: 'cron', schedule: cron.schedule };
  }
  if (config.interval !== undefined && Number.isInteger(config.interval) && config.interval > 0)
    return { kind: 'interval', intervalMs: config.interval * 1000, key };
  return { kind: 'none' };
}

/** The request for `config`: its HookConfigs and the Assets it and its hooks name, read from its namespace (missing ones left out). */
export function buildV2Request(resources: Pick<CheckConfigSource, 'getResource'>, namespace: string, config: CheckConfig, issuedMs: number): V2CheckRequest {
  const hookNames = new Set<string>();
  for (const entry of config.check_hooks ?? []) for (const names of Object.values(entry ?? {})) for (const n of names ?? []) hookNames.add(n);
  const hooks = [...hookNames].map((n) => resources.getResource('HookConfig', namespace, n)).filter((h) => h !== null);
  const assetsOf = (names: unknown) =>
    ((Array.isArray(names) ? names : []) as string[]).map((n) => resources.getResource('Asset', namespace, n)).filter((a) => a !== null);
  const hookAssets = hooks
    .filter((h) => Array.isArray(h.runtime_assets) && h.runtime_assets.length > 0)
    .map((h) => [String(h.metadata?.name), { assets: assetsOf(h.runtime_assets) }] as const);
  const request = {
    config: { ...config, metadata: { ...config.metadata, namespace } },
    hooks,
    assets: assetsOf(config.runtime_assets),
    issued: Math.floor(issuedMs / 1000),
  };
  return hookAssets.length > 0 ? { ...request, hook_assets: Object.fromEntries(hookAssets) } : request;
}
