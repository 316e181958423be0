import type { FastifyInstance, RouteOptions } from 'fastify';

interface KnownPath {
  readonly match: RegExp;
  readonly methods: Set<string>;
}

const known = new WeakMap<FastifyInstance, Map<string, KnownPath>>();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route pattern as a regular expression over the request path: `:param` is one segment, `*` anything. */
function matcherOf(pattern: string): RegExp {
  const segments = pattern.split('/').map((s) => (s.startsWith(':') ? '[^/]+' : s === '*' ? '.*' : escape(s)));
  return new RegExp(`^${segments.join('/')}$`);
}

/** Records every route's pattern and methods as it is added: call before adding routes. */
export function recordRoutePaths(app: FastifyInstance): void {
  const paths = new Map<string, KnownPath>();
  known.set(app, paths);
  app.addHook('onRoute', (route: RouteOptions) => {
    // A catch-all (the dashboard's) would make every unknown path a known one.
    if (route.url.includes('*')) return;
    const entry = paths.get(route.url) ?? { match: matcherOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    paths.set(route.url, entry);
  });
}

/** Whether another method than `method` is routed at `url`: a 405 rather than a 404, as Sensu Go's router answers. */
export function routedOtherwise(app: FastifyInstance, method: string, url: string): boolean {
  const path = url.split('?')[0]!;
  for (const entry of known.get(app)?.values() ?? []) if (!entry.methods.has(method) && entry.match.test(path)) return true;
  return false;
}
