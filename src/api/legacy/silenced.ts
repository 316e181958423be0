import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { readData } from './body.js';
import { remainingSeconds } from '../../store/index.js';
import { sendList } from './http.js';
import { LEGACY_NAME, SILENCED_ID, SUBSCRIPTION_NAME, unanchored } from '../../rules/index.js';

const SUBSCRIPTION = SUBSCRIPTION_NAME;
const CHECK = LEGACY_NAME;

// Legacy `fetch(key, '*')`: absent gives '*', a JSON null gives an empty part, kept as legacy made it.
const part = (data: Record<string, unknown>, key: string) => (key in data ? (data[key] === null ? '' : String(data[key])) : '*');
const idOf = (data: Record<string, unknown>) => `${part(data, 'subscription')}:${part(data, 'check')}`;
const escape = (text: string) => text.replace(/[\\^$+?()[\]{}|]/g, '\\$&');

/** Stores one validated silence under its `subscription:check` id; a later `begin` pushes its expiry back by as much. */
function putSilence(deps: LegacyApiDeps, data: Record<string, unknown>): void {
  const at = Math.floor(deps.clock.now() / 1000);
  const id = idOf(data);
  const entry = {
    id,
    subscription: data.subscription ?? null,
    check: data.check ?? null,
    reason: data.reason ?? null,
    creator: data.creator ?? null,
    begin: data.begin ?? null,
    expire_on_resolve: data.expire_on_resolve ?? false,
    timestamp: at,
  };
  const expire = data.expire as number | null | undefined;
  const expireAt = typeof expire === 'number' ? deps.clock.now() + (expire + Math.max(0, Number(data.begin ?? at) - at)) * 1000 : null;
  deps.store.silences.put(id, entry, expireAt);
}

/** The silence registry; entries expire like the Redis keys they replace. */
export function registerSilencedRoutes(route: AddRoute, deps: LegacyApiDeps): void {
  // Expiries are kept in ms (a 1 s expiry must last a second); `expire` is the remaining TTL in seconds, as Redis gave it.
  const entries = () => {
    const nowMs = deps.clock.now();
    return deps.store.silences.list(nowMs).map((e) => ({ key: `silence:${e.key}`, entry: { ...e.value, expire: remainingSeconds(e, nowMs) } }));
  };
  // Lookups build regexes from the raw segment, as legacy did ('.' stays a wildcard).
  const matching = (re: RegExp) =>
    entries()
      .filter((e) => re.test(e.key))
      .map((e) => e.entry);

  route('POST', '/silenced', (req, reply) => {
    const data = readData(req.body, {
      subscription: { type: 'string', nilOk: true, regex: SUBSCRIPTION },
      check: { type: 'string', nilOk: true, regex: CHECK },
      begin: { type: 'integer', nilOk: true },
      expire: { type: 'integer', nilOk: true },
      reason: { type: 'string', nilOk: true },
      creator: { type: 'string', nilOk: true },
      expire_on_resolve: { type: 'boolean', nilOk: true },
    });
    if (!data || (data.subscription == null && data.check == null)) return reply.code(400).send();
    putSilence(deps, data);
    return reply.code(201).send();
  });
  route('GET', '/silenced', (req, reply) =>
    sendList(
      req,
      reply,
      entries().map((e) => e.entry),
    ),
  );
  route(
    'GET',
    '/silenced/subscriptions/:subscription',
    (req, reply) => {
      const sub = (req.params as { subscription: string }).subscription;
      if (!SUBSCRIPTION.test(sub)) return reply.code(404).send();
      return sendList(req, reply, matching(new RegExp(`^silence:${escape(sub)}:`)));
    },
    new RegExp(`^/silenced/subscriptions/${unanchored(SUBSCRIPTION)}$`),
  );
  route('GET', '/silenced/checks/:check', (req, reply) => sendList(req, reply, matching(new RegExp(`.*:${escape((req.params as { check: string }).check)}$`))));
  route(
    'GET',
    '/silenced/ids/:id',
    (req: FastifyRequest, reply: FastifyReply) => {
      const id = (req.params as { id: string }).id;
      if (!SILENCED_ID.test(id)) return reply.code(404).send();
      const found = matching(new RegExp(`${escape(id).replace(/\*/g, '\\*')}$`));
      return found.length > 0 ? found.at(-1) : reply.code(404).send();
    },
    new RegExp(`^/silenced/ids/${unanchored(SILENCED_ID)}$`),
  );
  route('POST', '/silenced/clear', (req, reply) => {
    const data = readData(req.body, {
      id: { type: 'string', nilOk: true },
      subscription: { type: 'string', nilOk: true, regex: SUBSCRIPTION },
      check: { type: 'string', nilOk: true, regex: CHECK },
    });
    if (!data || (data.id == null && data.subscription == null && data.check == null)) return reply.code(400).send();
    const id = typeof data.id === 'string' ? data.id : idOf(data);
    return reply.code(deps.store.silences.delete(id, deps.clock.now()) ? 204 : 404).send();
  });
}
