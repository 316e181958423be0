import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { readData } from './body.js';
import { remainingSeconds } from '../../store/index.js';
import { sendList } from './http.js';

/** Stashes: JSON documents at a path, which may hold '/', with an optional expiry. */
export function registerStashRoutes(route: AddRoute, deps: LegacyApiDeps): void {
  const store = deps.store.stashes;
  const now = () => deps.clock.now(); // ms: expiries are kept in ms
  const pathOf = (req: FastifyRequest) => (req.params as { '*': string })['*'];
  const put = (path: string, content: unknown, expire: number | null, reply: FastifyReply) => {
    store.put(path, content, expire === null ? null : now() + expire * 1000);
    return reply.code(201).send({ path });
  };

  route('GET', '/stashes', (req, reply) =>
    sendList(
      req,
      reply,
      store.list(now()).map((s) => ({ path: s.key, content: s.value, expire: remainingSeconds(s, now()) })),
    ),
  );
  route('POST', '/stashes', (req, reply) => {
    const data = readData(req.body, { path: { type: 'string' }, content: { type: 'object' }, expire: { type: 'integer', nilOk: true } });
    if (!data) return reply.code(400).send();
    return put(String(data.path), data.content, (data.expire as number | undefined) ?? null, reply);
  });
  for (const prefix of ['/stash', '/stashes']) {
    const pattern = new RegExp(`^${prefix}/.+$`);
    route('GET', `${prefix}/*`, (req, reply) => store.get(pathOf(req), now())?.value ?? reply.code(404).send(), pattern);
    route(
      'POST',
      `${prefix}/*`,
      (req, reply) => {
        const body = req.body;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return reply.code(400).send();
        return put(pathOf(req), body, null, reply);
      },
      pattern,
    );
    route('DELETE', `${prefix}/*`, (req, reply) => reply.code(store.delete(pathOf(req), now()) ? 204 : 404).send(), pattern);
  }
}
