import type { Settings } from '../config/index.js';
import { newContext } from './context.js';
import { emitEntities } from './entities.js';

/**
 * The labels the Entity compile emits for `client` would carry (the labels its checks' templates and filters read,
 * its scalar attributes; never a secret), as an agent on that host would have them after `create -f`.
 */
export function agentLabelsOf(
  settings: Settings,
  client: Record<string, unknown>,
  labelsRead: ReadonlyMap<string, string>,
  namespace: string,
): Record<string, string> {
  const ctx = newContext({ ...settings, client } as Settings, namespace, () => undefined);
  const [entity] = emitEntities({ ...settings, client } as Settings, ctx, new Map(labelsRead), []);
  return { ...(entity?.metadata.labels ?? {}) };
}
