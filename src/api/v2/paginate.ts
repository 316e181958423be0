import type { FastifyReply, FastifyRequest } from 'fastify';

/** `limit` and `continue` (reference v2-api §2.4): the token is base64url (no padding) of {"offset":N}. */
export function paginate<T>(request: FastifyRequest, reply: FastifyReply, items: T[]): T[] {
  const query = request.query as { limit?: string; continue?: string };
  const limit = /^\d+$/.test(query.limit ?? '') ? Number(query.limit) : 0;
  let offset = 0;
  if (query.continue) {
    try {
      const decoded = JSON.parse(Buffer.from(query.continue, 'base64url').toString('utf8')) as { offset?: unknown };
      if (Number.isInteger(decoded.offset) && (decoded.offset as number) >= 0) offset = decoded.offset as number;
    } catch {
      offset = 0; // an undecodable token is treated as empty, as the reference does
    }
  }
  if (limit === 0) return items.slice(offset);
  const page = items.slice(offset, offset + limit);
  if (offset + limit < items.length) reply.header('Sensu-Continue', Buffer.from(JSON.stringify({ offset: offset + limit })).toString('base64url'));
  return page;
}
