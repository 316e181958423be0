import { BrokerConsumers, isWire, TransportConnections, type Transport, type WireTransport } from '../../transport/index.js';
import type { Logger } from '../../log.js';
import { SETTLE_MS, type Service } from '../lifecycle.js';
import { openTransport, transportNameFrom, type Role } from '../fleet.js';
import type { RunFlags } from './run-flags.js';
import type { SettingsHub } from './settings-hub.js';

export interface DaemonTransport {
  readonly transport: Transport;
  /** The broker, or null on the in-process bus. */
  readonly broker: WireTransport | null;
  /** Closes the connections, last but the store. */
  readonly service: Service;
  /** Consumes once every consumer is registered; at stop, the first thing after the scheduler. */
  readonly consuming: Service;
}

/** The transport between the roles: in-process, or a broker speaking the legacy wire. */
export function buildTransport(role: Role, flags: RunFlags, hub: SettingsHub, logger: Logger): DaemonTransport {
  const transport = openTransport(transportNameFrom(role, flags, hub.current()), hub.current(), Date.now(), logger);
  const broker = isWire(transport) ? transport : null;
  return { transport, broker, service: new TransportConnections(transport), consuming: new BrokerConsumers(broker, SETTLE_MS) };
}
