import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { SqliteStore } from '../../store/index.js';
import type { TokenIssuer } from '../../auth/tokens.js';
import type { Spawner } from '../../server/handling/mutate.js';

export interface V2ApiDeps {
  readonly store: SqliteStore;
  readonly tokens: TokenIssuer;
  readonly logger: Logger;
  /** Milliseconds. */
  readonly now: () => number;
  readonly spawn: Spawner;
  /** Events created through the API go through their pipelines here (after the store write). */
  readonly runPipelines: (namespace: string, event: Record<string, unknown>) => void;
  /** Extra figures for the health body's `Annotations` (the bridge's outbox). */
  readonly annotations?: () => Record<string, string>;
  /** Prometheus text for GET /metrics. */
  readonly metrics?: () => string;
}

export interface Caller {
  readonly username: string;
  readonly groups: string[];
  readonly viaKey: boolean;
}

/** Error codes and statuses of the v2 API (reference v2-api §2.3). */
export const ERRORS = {
  internal: { code: 0, status: 500 },
  invalid: { code: 1, status: 400 },
  notFound: { code: 2, status: 404 },
  exists: { code: 3, status: 409 },
  // In use: refused while other resources depend on it (Sensu Go answers 409 too).
  conflict: { code: 3, status: 409 },
  forbidden: { code: 4, status: 403 },
  unauthenticated: { code: 5, status: 401 },
} as const;

export function fail(reply: FastifyReply, kind: keyof typeof ERRORS, message: string) {
  const { code, status } = ERRORS[kind];
  return reply.code(status).header('X-Content-Type-Options', 'nosniff').send({ message, code });
}

// Set by the matched route's access hook (access.ts); a WeakMap so a request cannot carry a caller any other way.
const callers = new WeakMap<FastifyRequest, Caller>();
export const callerOf = (request: FastifyRequest): Caller => callers.get(request)!;
export const setCaller = (request: FastifyRequest, caller: Caller): void => void callers.set(request, caller);
export const nowS = (deps: V2ApiDeps) => Math.floor(deps.now() / 1000);
export const NAME = /^[\w.\-:]+$/;
