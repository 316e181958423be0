import type { WireTransport } from '../../transport/index.js';
import { wireClient } from '../fleet.js';
import { buildExecution } from './execution.js';
import { buildTransport } from './transport.js';
import { buildClient } from './client.js';
import { buildWatcher } from './watcher.js';
import type { Daemon, DaemonBase } from './base.js';

/**
 * `run --role client`: a legacy client's duties over a broker — keepalives, subscriptions, standalone checks,
 * the sockets — with no store and no APIs.
 */
export async function composeClient(base: DaemonBase): Promise<Daemon> {
  const { hub, lifecycle, logger } = base;
  const execution = buildExecution(base.stateDir, hub, logger);
  const daemonTransport = buildTransport('client', base.flags, hub, logger);
  const broker = daemonTransport.transport as WireTransport;
  const { results, keepalive } = wireClient(broker, hub.current, logger);
  const client = buildClient(
    { hub, flags: base.flags, transport: broker, execution, intake: results, keepalive, isRunning: () => lifecycle.isRunning() },
    logger,
  );
  const watcher = buildWatcher(base.sources, base.initial, hub, () => lifecycle.isStopping(), logger);
  return {
    services: [daemonTransport.service, execution.processes, ...client.services, daemonTransport.consuming, watcher.service],
    reload: watcher.reload,
    summary: () => ({ transport: broker.name, ...client.summary() }),
  };
}
