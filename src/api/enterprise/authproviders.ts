import type { FastifyInstance } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { fail, callerOf, type V2ApiDeps } from '../v2/context.js';
import { sensuNameProblem } from '../../rules/index.js';
import { listResponse } from '../v2/listing.js';
import { fieldSet } from '../../v2/index.js';
import { parseProvider, providerView, type Provider } from '../../auth/index.js';
import { getProvider, putProvider, deleteProvider, listProviders } from '../../auth/index.js';

const BASE = '/api/enterprise/authentication/v2/authproviders';
const PROVIDER_FIELDS = fieldSet('authprovider', { name: (p) => p.metadata?.name, type: (p) => p.type });

/**
 * Authentication providers: list (repeatable `types`, any case; paging), get, PUT
 * create (201) or update (200), DELETE (204). Cluster-wide: RBAC lets only cluster admins reach them (access.ts).
 */
export function registerAuthProviderRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const v2 = deps.store.resources;
  app.get(BASE, (request, reply) => {
    const types = new URLSearchParams(request.url.split('?')[1] ?? '').getAll('types').map((t) => t.toLowerCase());
    const providers = listProviders(v2).filter((p) => types.length === 0 || types.includes(p.type));
    return listResponse(request, reply, providers.map(providerView), PROVIDER_FIELDS, (p: Provider) => p.metadata.name);
  });
  app.get(`${BASE}/:name`, (request, reply) => {
    const found = getProvider(v2, (request.params as { name: string }).name);
    return found ? providerView(found) : fail(reply, 'notFound', 'not found');
  });
  app.put(`${BASE}/:name`, (request, reply) => {
    const name = (request.params as { name: string }).name;
    const badName = sensuNameProblem(name);
    if (badName) return fail(reply, 'invalid', badName);
    const previous = getProvider(v2, name);
    const parsed = parseProvider(request.body, name, previous);
    if (typeof parsed === 'string') return fail(reply, 'invalid', parsed);
    const next: Provider = { ...parsed, metadata: { name, created_by: callerOf(request).username } };
    // A read written back (its secrets REDACTED, so the stored ones kept) is no change: nothing is written.
    if (previous && isDeepStrictEqual({ ...previous, metadata: next.metadata }, next)) return reply.code(200).type('application/json').send();
    putProvider(v2, next);
    deps.logger.info({ provider: name, type: parsed.type }, previous ? 'authentication provider updated' : 'authentication provider created');
    return reply
      .code(previous ? 200 : 201)
      .type('application/json')
      .send();
  });
  app.delete(`${BASE}/:name`, (request, reply) => {
    const name = (request.params as { name: string }).name;
    if (!deleteProvider(v2, name)) return fail(reply, 'notFound', 'not found');
    deps.logger.info({ provider: name }, 'authentication provider deleted');
    return reply.code(204).send();
  });
}
