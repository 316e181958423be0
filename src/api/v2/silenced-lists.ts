import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from './context.js';
import { serveAs, type Silenced } from '../../v2/index.js';

/** Silences whose subscription (or check) is exactly this one, by namespace and name (Sensu Go's order), with every field as GET serves them. */
const matching = (entries: Silenced[], field: 'subscription' | 'check', value: string) =>
  entries.filter((s) => s[field] === value).map((s) => serveAs('Silenced', s));

/**
 * Sensu Go's silenced lookups: by subscription or by check in one namespace, by check in every namespace. Plain
 * lists without paging or selectors, as Sensu Go serves them; a namespace that does not exist has none.
 */
export function registerSilencedLists(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.resources;
  const inNamespace = (namespace: string): Silenced[] => v2.listResources('Silenced', namespace);
  const everywhere = () => v2.listResources('Namespace', '').flatMap((n) => inNamespace(String(n.name)));
  const base = '/api/core/v2/namespaces/:namespace/silenced';
  app.get(`${base}/subscriptions/:subscription`, async (request) => {
    const { namespace, subscription } = request.params as { namespace: string; subscription: string };
    return matching(inNamespace(namespace), 'subscription', subscription);
  });
  app.get(`${base}/checks/:check`, async (request) => {
    const { namespace, check } = request.params as { namespace: string; check: string };
    return matching(inNamespace(namespace), 'check', check);
  });
  app.get('/api/core/v2/silenced/checks/:check', async (request) => matching(everywhere(), 'check', (request.params as { check: string }).check));
}
