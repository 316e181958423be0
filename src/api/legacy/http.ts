import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactOutput } from '../../config/index.js';
import type { ReadClock } from '../../schedule/index.js';

/**
 * A 400 as legacy answered it, with an empty body (clients rely on it); the reason travels in a header
 * (printable ASCII only) so that a person debugging still sees what was wrong.
 */
export function refuse(reply: FastifyReply, reason: string) {
  return reply
    .code(400)
    .header('X-Checkbridge-Error', reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 512))
    .send();
}

/** A 403 in the same form: empty body, the reason in the header. */
export function forbid(reply: FastifyReply, reason: string) {
  return reply.code(403).header('X-Checkbridge-Error', reason).send();
}

/** The body of a 202: when the request was taken, in seconds. */
export const issued = (clock: ReadClock) => ({ issued: Math.floor(clock.now() / 1000) });

// Legacy query parsing: split on & and =, values not URL-decoded.
export function legacyQuery(url: string): Record<string, string> {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const out: Record<string, string> = {};
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const [key, ...rest] = pair.split('=');
    out[key!] = rest.join('=');
  }
  return out;
}

function matchesFilter(value: unknown, path: string[], expected: string): boolean {
  let node = value;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== undefined && node !== null && (node === expected || String(typeof node === 'object' ? JSON.stringify(node) : node) === expected);
}

/** `filter.<dot.path>=value` response filtering, then limit/offset pagination with X-Pagination. */
export function sendList(request: FastifyRequest, reply: FastifyReply, items: unknown[]): unknown[] {
  const query = legacyQuery(request.url);
  let list = items;
  for (const [key, expected] of Object.entries(query)) {
    if (!key.startsWith('filter.')) continue;
    const path = key.slice('filter.'.length).split('.');
    // Filters read what the caller may see: a filter on a secret must not confirm a guess.
    list = list.filter((item) => matchesFilter(redactOutput(item), path, expected));
  }
  const limit = /^[0-9]+$/.test(query.limit ?? '') ? Number(query.limit) : undefined;
  if (limit !== undefined) {
    const offset = /^[0-9]+$/.test(query.offset ?? '') ? Number(query.offset) : 0;
    reply.header('X-Pagination', JSON.stringify({ limit, offset, total: list.length }));
    list = list.slice(offset, offset + limit);
  }
  return list;
}
