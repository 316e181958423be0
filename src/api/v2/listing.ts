import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from './context.js';
import { parseSelector, matchesSelector, SelectorError, type Op, type FieldSet } from '../../v2/index.js';
import { redactOutput } from '../../config/index.js';

/** Every selector operation must name a field the resource has (or one of its labels): a typo is a 400, not "everything". */
function unknownField(ops: readonly Op[], set: FieldSet): string | null {
  const known = (field: string) => set.names.includes(field) || field.startsWith(`${set.prefix}.labels.`);
  for (const { left, op, right } of ops) {
    // `linux in check.subscriptions` names the field on the right.
    if ((op === 'in' || op === 'notin') && right.length === 1 && known(right[0]!)) continue;
    if (!known(left)) return left;
  }
  return null;
}

/** The parsed `fieldSelector` and `labelSelector` (each repeatable, joined with &&); null after a 400. */
export function selectorsOf(request: FastifyRequest, reply: FastifyReply, set: FieldSet): { fields?: Op[]; labels?: Op[] } | null {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const out: { fields?: Op[]; labels?: Op[] } = {};
  for (const param of ['fieldSelector', 'labelSelector'] as const) {
    const values = query.getAll(param);
    if (values.length === 0) continue;
    let ops: Op[];
    try {
      ops = parseSelector(values.join(' && '));
    } catch (error) {
      if (!(error instanceof SelectorError)) throw error;
      fail(reply, 'invalid', `failed to parse ${param}: ${error.message}`);
      return null;
    }
    if (param === 'fieldSelector') {
      const unknown = unknownField(ops, set);
      if (unknown !== null) {
        fail(
          reply,
          'invalid',
          `failed to parse fieldSelector: unknown field ${JSON.stringify(unknown)}; fields: ${set.names.join(', ')}, ${set.prefix}.labels.<key>`,
        );
        return null;
      }
    }
    out[param === 'fieldSelector' ? 'fields' : 'labels'] = ops;
  }
  return out;
}

/** `fieldSelector` and `labelSelector` matched in memory; null after a 400. */
function select<T extends object>(request: FastifyRequest, reply: FastifyReply, items: T[], set: FieldSet): T[] | null {
  const selectors = selectorsOf(request, reply, set);
  if (!selectors) return null;
  let out = items;
  for (const [ops, read] of [
    [selectors.fields, set.fields],
    [selectors.labels, set.labels],
  ] as const) {
    // Selectors read what the caller may see: a selector on a secret label must not confirm a guess (redaction keeps the shape).
    if (ops) out = out.filter((item) => matchesSelector(ops, read(redactOutput(item) as T)));
  }
  return out;
}

// Unpadded base64url whose length can be whole bytes.
const TOKEN = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `limit` and `continue` by key, as Sensu Go's etcd store does: the token is the last returned
 * key plus NUL, so items deleted or added while a client pages never make it skip or repeat others.
 */
export function page<T>(request: FastifyRequest, reply: FastifyReply, items: T[], key: (item: T) => string): T[] {
  const query = request.query as { limit?: string; continue?: string };
  const limit = /^\d+$/.test(query.limit ?? '') ? Number(query.limit) : 0;
  const keyed = items.map((item) => ({ item, key: key(item) })).sort((a, b) => compare(a.key, b.key));
  // A token that is not base64url (as Sensu Go's) restarts the list, as Sensu Go does, rather than ending it.
  const from = query.continue && TOKEN.test(query.continue) ? Buffer.from(query.continue, 'base64url').toString('utf8') : '';
  const rest = from === '' ? keyed : keyed.filter((entry) => compare(entry.key, from) >= 0);
  if (limit === 0 || rest.length <= limit) return rest.map((entry) => entry.item);
  const shown = rest.slice(0, limit);
  reply.header('Sensu-Continue', Buffer.from(`${shown[shown.length - 1]!.key}\u0000`).toString('base64url'));
  return shown.map((entry) => entry.item);
}

/** One list response: selectors on the resource's fields, then a page by key; the reply itself after a 400. */
export function listResponse<T extends object>(
  request: FastifyRequest,
  reply: FastifyReply,
  items: T[],
  set: FieldSet,
  key: (item: T) => string,
): T[] | FastifyReply {
  const selected = select(request, reply, items, set);
  return selected === null ? reply : page(request, reply, selected, key);
}
