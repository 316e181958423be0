import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, callerOf, type V2ApiDeps } from '../v2/context.js';
import { parsePostgresConfig } from '../../store/index.js';
import { listResponse } from '../v2/listing.js';
import { PROVIDER_FIELDS } from '../../v2/index.js';
import type { EventStoreRouter, PostgresConfig } from '../../store/index.js';
import { redactDsn } from '../../config/index.js';
import { CREDENTIAL_MASK } from '../../secrets/index.js';
import { isDeepStrictEqual } from 'node:util';

/**
 * The DSN to store: as given, or the stored one when the given one is what reads show of it (its password REDACTED,
 * everything else alike); a REDACTED password with anything else changed is refused: the stored one went elsewhere.
 */
export function dsnToStore(given: string, stored: string | undefined): { dsn: string } | { problem: string } {
  const masked = given.includes(CREDENTIAL_MASK) && redactDsn(given) === given;
  if (!masked || given === stored) return { dsn: given };
  if (stored !== undefined && redactDsn(stored) === given) return { dsn: stored };
  return {
    problem: `spec.dsn has the password ${CREDENTIAL_MASK}, as reads show it, but ${stored === undefined ? 'none is stored' : 'the rest of the DSN changed'}: give the password`,
  };
}

const withoutWriter = (config: PostgresConfig) => ({ ...config, metadata: { ...config.metadata, created_by: undefined } });

const BASE = '/api/enterprise/store/v1/provider';
/** Admin-only route patterns (access.ts): the event store is cluster-wide. */

/**
 * `PostgresConfig`: GET lists or reads, PUT creates or replaces (strict: only after
 * connecting and checking the user may create tables, else 400 and nothing stored), DELETE 204/404.
 */
export function registerStoreRoutes(app: FastifyInstance, deps: V2ApiDeps, router: EventStoreRouter): void {
  const find = (name: string) => router.configs().find((c) => c.metadata.name === name);
  // Pages and selects like every other list (`limit`/`continue`, `fieldSelector` on provider.name).
  app.get(BASE, (request, reply) => listResponse(request, reply, router.configs(), PROVIDER_FIELDS, (c) => String(c.metadata?.name ?? '')));
  app.get(`${BASE}/:name`, (request, reply) => find((request.params as { name: string }).name) ?? fail(reply, 'notFound', 'not found'));
  const put = async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = parsePostgresConfig(request.body, (request.params as { name?: string }).name);
    if ('problem' in parsed) return fail(reply, 'invalid', parsed.problem);
    const stored = find(parsed.config.metadata.name);
    const dsn = dsnToStore(parsed.config.spec.dsn, stored?.spec.dsn);
    if ('problem' in dsn) return fail(reply, 'invalid', dsn.problem);
    const config = {
      ...parsed.config,
      spec: { ...parsed.config.spec, dsn: dsn.dsn },
      metadata: { ...parsed.config.metadata, created_by: callerOf(request).username },
    };
    // What is stored already (a read written back): no change, so no reconnection either.
    if (stored && isDeepStrictEqual(withoutWriter(stored), withoutWriter(config))) return reply.code(201).type('application/json').send();
    if (config.spec.strict === true) {
      const problem = await router.check(config);
      if (problem) return fail(reply, 'invalid', `PostgresConfig ${config.metadata.name} refused (strict): ${problem}`);
    }
    await router.configure(config);
    deps.logger.info({ postgres: config.metadata.name, strict: config.spec.strict === true, by: callerOf(request).username }, 'PostgresConfig stored');
    return reply.code(201).type('application/json').send();
  };
  app.put(BASE, put);
  app.put(`${BASE}/:name`, put);
  app.delete(`${BASE}/:name`, async (request, reply) => {
    const name = (request.params as { name: string }).name;
    if (!(await router.remove(name))) return fail(reply, 'notFound', 'not found');
    deps.logger.info({ postgres: name, by: callerOf(request).username }, 'PostgresConfig deleted');
    return reply.code(204).send();
  });
}
