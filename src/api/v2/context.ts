import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecuteOptions, ExecuteOutcome } from '../../scheduling/index.js';
import type { Logger } from 'pino';
import type { StateStore } from '../../store/index.js';
import type { V2EventStore } from '../../store/index.js';
import { EmbeddedEventStore } from '../../store/index.js';
import type { EventStoreRouter } from '../../store/index.js';
import type { TokenIssuer } from '../../auth/index.js';
import type { Spawner } from '../../handling/index.js';
import type { EventIntake } from '../../intake/index.js';
import type { DashboardDeps } from '../dashboard/deps.js';
import type { ListenerHttps } from '../../tls/index.js';
import { ERRORS, type ErrorCode } from '../../errors.js';
import type { ReadClock } from '../../schedule/index.js';

export interface V2ApiDeps {
  /** HTTPS (and mutual TLS) for this listener; plain HTTP without. */
  readonly https?: ListenerHttps | null;
  readonly store: StateStore;
  /** Where v2 events live: the embedded store (the default), or PostgreSQL while a PostgresConfig is in use. */
  readonly events?: V2EventStore;
  /** The PostgresConfig resources and their health; absent: the routes answer 404 (no PostgreSQL support wired). */
  readonly postgres?: EventStoreRouter;
  readonly tokens: TokenIssuer;
  readonly logger: Logger;
  /** Milliseconds. */
  readonly clock: ReadClock;
  readonly spawn: Spawner;
  /** Where events created through the API go: the one intake stores them and sends them on to their pipelines. */
  readonly intake: EventIntake;
  /** Extra figures for the health body's `Annotations` (the bridge's outbox). */
  readonly annotations?: () => Record<string, string>;
  /** Whether one more entity may be created: a message about the missing license when not. */
  readonly entityGate?: () => string | null;
  /** An entity was written through the API: a connected agent is told (`entity_config`). */
  readonly onEntityWritten?: (namespace: string, name: string) => void;
  /** Sends an ad hoc request for a v2 CheckConfig (`check execute`); absent where nothing schedules v2 checks. */
  readonly executeCheck?: (namespace: string, check: string, options: ExecuteOptions) => ExecuteOutcome;
  /** The namespace whose entity list also shows the legacy clients (checkbridge.namespace). */
  readonly legacyNamespace?: () => string;
  /** Prometheus text for GET /metrics. */
  readonly metrics?: () => string | Promise<string>;
  /** The built-in dashboard (page at `/`, data under /api/checkbridge/v1); absent, the listener serves the API alone. */
  readonly dashboard?: DashboardDeps;
}

export interface Caller {
  readonly username: string;
  readonly groups: string[];
  readonly viaKey: boolean;
}

/** The v2 API's failures by name, each a registry code with its HTTP status and Sensu Go's numeric code. */
const FAILURE_CODES = {
  internal: 'CB_API_INTERNAL',
  invalid: 'CB_API_INVALID',
  notFound: 'CB_API_NOT_FOUND',
  exists: 'CB_API_EXISTS',
  conflict: 'CB_API_CONFLICT',
  forbidden: 'CB_API_FORBIDDEN',
  unauthenticated: 'CB_API_UNAUTHENTICATED',
  // The entity limit of an instance without a license.
  unlicensed: 'CB_ENTITY_LIMIT',
} as const satisfies Record<string, ErrorCode>;

/** A failure answered: its status, and Sensu Go's body (`message` and numeric `code`). */
export function fail(reply: FastifyReply, failure: keyof typeof FAILURE_CODES, message: string) {
  const { apiCode: code, httpStatus: status } = ERRORS[FAILURE_CODES[failure]];
  return reply.code(status).header('X-Content-Type-Options', 'nosniff').send({ message, code });
}

// Set by the matched route's access hook (access.ts); a WeakMap so a request cannot carry a caller any other way.
const callers = new WeakMap<FastifyRequest, Caller>();
export const callerOf = (request: FastifyRequest): Caller => callers.get(request)!;
export const setCaller = (request: FastifyRequest, caller: Caller): void => void callers.set(request, caller);
export const nowS = (deps: V2ApiDeps) => Math.floor(deps.clock.now() / 1000);

const embeddedEvents = new WeakMap<StateStore, V2EventStore>();
/** The deps' event store, or the embedded one. */
export function eventStoreOf(deps: V2ApiDeps): V2EventStore {
  if (deps.events) return deps.events;
  if (!embeddedEvents.has(deps.store)) embeddedEvents.set(deps.store, new EmbeddedEventStore(deps.store.resources));
  return embeddedEvents.get(deps.store)!;
}
