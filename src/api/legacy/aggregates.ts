import type { AddRoute, LegacyApiDeps } from './deps.js';
import { sendList, legacyQuery } from './http.js';
import { aggregateMembers, memberNames, summarize, resultsOfSeverity, groupBy, SEVERITIES, type Severity } from '../../intake/index.js';

/** Aggregates: membership is stored, summaries are computed from the stored results on request. */
export function registerAggregateRoutes(route: AddRoute, deps: LegacyApiDeps): void {
  const store = deps.store;
  // `max_age=S` keeps results executed in the last S seconds; anything but digits is ignored.
  const oldest = (url: string) => {
    const maxAge = legacyQuery(url).max_age ?? '';
    return /^[0-9]+$/.test(maxAge) ? Math.floor(deps.clock.now() / 1000) - Number(maxAge) : null;
  };
  const rawMembers = (name: string) => memberNames(store, name).map(({ client, check }) => ({ client, check, result: null }));
  const name = (req: { params: unknown }) => (req.params as { name: string }).name;

  route('GET', '/aggregates', (req, reply) =>
    sendList(
      req,
      reply,
      store.aggregates.names().map((n) => ({ name: n })),
    ),
  );
  route('GET', '/aggregates/:name', (req, reply) => {
    const members = aggregateMembers(store, name(req));
    return members.length > 0 ? summarize(members, oldest(req.url)) : reply.code(404).send();
  });
  route('DELETE', '/aggregates/:name', (req, reply) => reply.code(store.aggregates.delete(name(req)) ? 204 : 404).send());
  route('GET', '/aggregates/:name/clients', (req, reply) => {
    const members = rawMembers(name(req));
    return members.length > 0 ? groupBy(members, 'client') : reply.code(404).send();
  });
  route('GET', '/aggregates/:name/checks', (req, reply) => {
    const members = rawMembers(name(req));
    return members.length > 0 ? groupBy(members, 'check') : reply.code(404).send();
  });
  route('GET', '/aggregates/:name/results/:severity', (req, reply) => {
    const severity = (req.params as { severity: string }).severity;
    if (!(SEVERITIES as readonly string[]).includes(severity)) return reply.code(400).send();
    const members = aggregateMembers(store, name(req));
    return members.length > 0 ? resultsOfSeverity(members, severity as Severity, oldest(req.url)) : reply.code(404).send();
  });
}
