import type { FastifyInstance } from 'fastify';
import type { ConfigSources, Settings } from '../../config/index.js';
import type { BridgeView } from '../../bridge/index.js';
import type { ExecuteOptions, ExecuteOutcome, NextExecution } from '../../scheduling/index.js';

/** What the dashboard needs from the composition root beyond the v2 API's own dependencies. */
export interface DashboardDeps {
  /** The legacy API: silences, stashes, aggregates, clients and actions are answered by its own handlers. */
  readonly legacy: FastifyInstance;
  readonly settings: () => Settings;
  /** Where the configuration is read from (validation and compile read it afresh). */
  readonly sources: ConfigSources;
  readonly bridge: BridgeView | null;
  /** Registers a listener called after every processed event. */
  readonly onEvent: (listener: () => void) => void;
  /** The v2 CheckConfigs scheduled here with their next request (none on a server not elected), and ad hoc execution. */
  readonly v2Checks?: { nextExecutions(): NextExecution[]; execute(namespace: string, check: string, options?: ExecuteOptions): ExecuteOutcome };
  /** Where the built front end lives (default dist/web beside the compiled server). */
  readonly webRoot?: string;
}

export const PREFIX = '/api/checkbridge/v1';

/** A query parameter as one string ('' when absent or repeated). */
export const param = (query: unknown, key: string): string => {
  const value = query && typeof query === 'object' && Object.hasOwn(query, key) ? (query as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : '';
};
