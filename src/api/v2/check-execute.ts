import type { FastifyInstance } from 'fastify';
import { fail, callerOf, nowS, type V2ApiDeps } from './context.js';
import { missingNamespace } from './resources.js';
import type { CheckConfig, ObjectMeta } from '../../v2/index.js';

/** Sensu Go's AdhocRequest, once adhocProblem found nothing wrong with it. */
interface AdhocRequest {
  readonly subscriptions?: string[] | null;
  readonly reason?: string;
  readonly creator?: string;
  readonly metadata?: ObjectMeta;
}

/** Why an ad hoc request body (Sensu Go's AdhocRequest) is refused, or null. */
function adhocProblem(body: unknown, check: string): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return 'request body must be a JSON object: {"subscriptions": [...], "reason": "...", "creator": "..."}';
  const { subscriptions, reason, creator, metadata } = body as Record<string, unknown>;
  if (
    subscriptions !== undefined &&
    subscriptions !== null &&
    (!Array.isArray(subscriptions) || subscriptions.some((s: unknown) => typeof s !== 'string' || s === ''))
  )
    return 'subscriptions must be a list of non-empty strings';
  if (reason !== undefined && typeof reason !== 'string') return 'reason must be a string';
  if (creator !== undefined && typeof creator !== 'string') return 'creator must be a string';
  const name = (metadata as { name?: unknown } | null | undefined)?.name;
  if (name && name !== check) return `the name of the resource (${String(name)}) does not match the name of the URI (${check})`;
  return null;
}

/**
 * `POST /api/core/v2/namespaces/:namespace/checks/:check/execute` (`sensuctl check execute`): Sensu Go's ad hoc
 * request, 202 `{"issued": <unix seconds>}`: validated, logged and sent at once by the v2 check scheduler to the
 * subscribers of the subscriptions asked for (else the check's own), even when the check is not published.
 */
export function registerCheckExecuteRoute(app: FastifyInstance, deps: V2ApiDeps): void {
  app.post('/api/core/v2/namespaces/:namespace/checks/:check/execute', (request, reply) => {
    const { namespace, check } = request.params as { namespace: string; check: string };
    const problem = adhocProblem(request.body, check);
    if (problem) return fail(reply, 'invalid', problem);
    const missing = missingNamespace(deps.store.resources, namespace);
    if (missing) return fail(reply, 'notFound', missing);
    const config: CheckConfig | null = deps.store.resources.getResource('CheckConfig', namespace, check);
    if (!config) return fail(reply, 'notFound', 'not found');
    const body = request.body as AdhocRequest;
    const subscriptions = Array.isArray(body.subscriptions) && body.subscriptions.length > 0 ? body.subscriptions : (config.subscriptions ?? []);
    // The creator is who the token says, whatever the body names (Sensu Go sets it from the caller's claims too).
    const creator = callerOf(request).username;
    deps.logger.info({ namespace, check, subscriptions, reason: body.reason ?? '', creator }, 'check execution requested');
    if (!deps.executeCheck) return reply.code(202).send({ issued: nowS(deps) });
    const outcome = deps.executeCheck(namespace, check, { subscriptions, reason: body.reason, creator });
    if (!outcome.ok) return fail(reply, 'notFound', outcome.reason);
    const issued = outcome.issued;
    return reply.code(202).send({ issued });
  });
}
