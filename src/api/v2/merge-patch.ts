import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail } from './context.js';
import { readJsonBodies } from './json-body.js';

export const MERGE_PATCH = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** RFC 7386: objects merge key by key, null removes a key, anything else replaces the value. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    // The parser refuses a key named __proto__; were one to come another way, it would be data, never the prototype.
    else Object.defineProperty(out, key, { value: applyMergePatch(out[key], value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Sensu Go's answer to a PATCH in a content type other than a merge patch (400), or null. */
export function patchTypeProblem(contentType: string | undefined): string | null {
  const type = (contentType ?? MERGE_PATCH).split(';')[0]!.trim().toLowerCase();
  if (type === MERGE_PATCH) return null;
  if (type === JSON_PATCH) return `JSON Patch is not supported yet. Allowed values: ${MERGE_PATCH}`;
  return `invalid Content-Type header: ${String(contentType)}.  Allowed values: ${MERGE_PATCH}`;
}

/** Merge patches are read by the JSON bodies' one parser; a PATCH with a body and no type is one (Sensu Go's default). */
export function acceptMergePatches(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const { headers } = request;
    const bodied = headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
    if (request.method === 'PATCH' && headers['content-type'] === undefined && bodied) headers['content-type'] = MERGE_PATCH;
  });
  readJsonBodies(app, [MERGE_PATCH, JSON_PATCH]);
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * `PATCH …/:name`: the stored resource with the patch merged in goes through `put`, the kind's own PUT handler
 * (validation, grants, store), as if the client had sent it whole. `current` reads the stored one.
 */
export function mergePatchRoute(current: (request: FastifyRequest) => object | null, put: Handler): Handler {
  return (request, reply) => {
    const wrongType = patchTypeProblem(request.headers['content-type']);
    if (wrongType) return fail(reply, 'invalid', wrongType);
    const patch = request.body;
    if (!isObject(patch)) return fail(reply, 'invalid', 'a merge patch must be a JSON object');
    const { namespace, name } = request.params as { namespace?: string; name: string };
    const meta = isObject(patch.metadata) ? patch.metadata : {};
    if (meta.namespace && namespace !== undefined && meta.namespace !== namespace)
      return fail(reply, 'invalid', `the namespace of the resource (${String(meta.namespace)}) does not match the namespace in the URI (${namespace})`);
    if (meta.name && meta.name !== name)
      return fail(reply, 'invalid', `the name of the resource (${String(meta.name)}) does not match the name in the URI (${name})`);
    const stored = current(request);
    if (!stored) return fail(reply, 'notFound', 'not found');
    request.body = applyMergePatch(stored, patch);
    return put(request, reply);
  };
}
