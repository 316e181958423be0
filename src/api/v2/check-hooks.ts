import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail } from './context.js';
import { created, type ResourceWriter } from './resource-writer.js';
import type { CheckConfig, HookList } from '../../v2/index.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A HookList body, `{"<type>": [<hook names>]}`, read as pairs; why not, as a string. */
function hookListOf(body: unknown): [string, string[]][] | string {
  const usage = 'send {"<type>": [<hook names>]} (a type such as critical, warning, ok, unknown or 1-255, and the names of hooks)';
  const entries = isObject(body) ? Object.entries(body) : [];
  if (entries.length === 0) return `request body must be a JSON object: ${usage}`;
  for (const [type, names] of entries)
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n === '')) return `${type} must be a list of hook names: ${usage}`;
  return entries as [string, string[]][];
}

/**
 * The check's hooks with these added: names join the first list of their type, without repeats; a new type is
 * appended. Each type and each name is looked up in a map, never searched for: a body of n types costs O(n).
 */
function withHooks(hooks: CheckConfig['check_hooks'], added: [string, string[]][]): HookList[] {
  const lists: HookList[] = Array.isArray(hooks) ? hooks.map((h) => ({ ...h })) : [];
  const firstListOf = new Map<string, HookList>();
  for (const entry of lists)
    for (const [type, names] of Object.entries(entry)) if (Array.isArray(names) && !firstListOf.has(type)) firstListOf.set(type, entry);
  for (const [type, names] of added) {
    const entry = firstListOf.get(type);
    if (!entry) {
      firstListOf.set(type, { [type]: [...new Set(names)] });
      lists.push(firstListOf.get(type)!);
      continue;
    }
    // The stored list stays as it was; only names it does not hold yet are appended, each once.
    const held = new Set<string>(entry[type]);
    const fresh = names.filter((name) => !held.has(name) && held.add(name));
    entry[type] = [...entry[type]!, ...fresh];
  }
  return lists;
}

/** The check's hooks without this one, or null when the type does not list it; a type left empty goes. */
function withoutHook(hooks: CheckConfig['check_hooks'], type: string, hook: string): HookList[] | null {
  const lists: HookList[] = Array.isArray(hooks) ? hooks.map((h) => ({ ...h })) : [];
  const at = lists.findIndex((h) => isObject(h) && Array.isArray(h[type]) && h[type].includes(hook));
  if (at === -1) return null;
  const left = lists[at]![type]!.filter((n) => n !== hook);
  if (left.length === 0) lists.splice(at, 1);
  else lists[at]![type] = left;
  return lists;
}

/**
 * `sensuctl check set-hooks` and `remove-hook`: `PUT …/checks/:name/hooks/:type` adds the body's hooks (its type
 * decides, as in Sensu Go), `DELETE …/checks/:name/hooks/:type/hook/:hook` removes one. The changed check goes through
 * the checks' PUT handler, validation and all.
 */
export function registerCheckHookRoutes(app: FastifyInstance, checks: ResourceWriter): void {
  const base = '/api/core/v2/namespaces/:namespace/checks/:name/hooks/:type';
  const storedCheck = (request: FastifyRequest): CheckConfig | null => {
    const { namespace, name } = request.params as { namespace: string; name: string };
    return checks.get(namespace, name);
  };
  app.put(base, (request, reply) => {
    const check = storedCheck(request);
    if (!check) return fail(reply, 'notFound', 'not found');
    const added = hookListOf(request.body);
    if (typeof added === 'string') return fail(reply, 'invalid', added);
    request.body = { ...check, check_hooks: withHooks(check.check_hooks, added) };
    return checks.put(created)(request, reply);
  });
  app.delete(`${base}/hook/:hook`, (request, reply) => {
    const check = storedCheck(request);
    if (!check) return fail(reply, 'notFound', 'not found');
    const { type, hook } = request.params as { type: string; hook: string };
    const hooks = withoutHook(check.check_hooks, type, hook);
    if (!hooks) return fail(reply, 'notFound', 'not found');
    // No hook left: none at all, as Sensu Go serves it (`null`).
    request.body = { ...check, check_hooks: hooks.length > 0 ? hooks : null };
    return checks.put((done) => done.code(204).send())(request, reply);
  });
}
