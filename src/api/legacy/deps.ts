// What the legacy API is built from, and how its route files add routes: apart from server.ts so that they need not import it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Settings } from '../../config/index.js';
import type { StateStore, V2EventStore } from '../../store/index.js';
import type { EventIntake } from '../../intake/index.js';
import type { ResultIntake } from '../../execute/index.js';
import type { BridgeView } from '../../bridge/index.js';
import type { ListenerHttps } from '../../tls/index.js';
import type { TransportInfo } from '../../transport/index.js';
import type { ReadClock } from '../../schedule/index.js';

export type RouteMethod = 'GET' | 'POST' | 'DELETE';

export interface LegacyApiDeps {
  /** HTTPS (and mutual TLS) for this listener; plain HTTP without. */
  readonly https?: ListenerHttps | null;
  readonly store: StateStore;
  /** Publishes a check request now (POST /request); false when the check is unknown. */
  readonly requestCheck: (name: string, subscribers: string[] | undefined, apiRequested: Record<string, unknown>) => boolean;
  readonly settings: () => Settings;
  readonly intake: ResultIntake & EventIntake;
  /** Where v2 events live (the event store router): agents' check events are read there; the embedded store by default. */
  readonly events?: V2EventStore;
  /** Where POST /results goes: the broker's `results` over a broker, as legacy publishes it; the intake by default. */
  readonly results?: ResultIntake;
  readonly logger: Logger;
  readonly clock: ReadClock;
  /** The bridge's state for /info and /bridge; null when no bridge is configured. */
  readonly bridge?: BridgeView | null;
  /** The transport's state and queue figures for /info and /health; the in-process bus when absent. */
  readonly transport?: () => Promise<TransportInfo>;
  /** `/info` `servers`: the servers sharing the store and the tasks each holds; none for a server alone. */
  readonly servers?: () => Promise<readonly unknown[]>;
}

export type AddRoute = (method: RouteMethod, path: string, handler: (req: FastifyRequest, reply: FastifyReply) => unknown, pattern?: RegExp) => void;
