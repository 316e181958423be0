import { isWire, type Transport, type WireTransport } from '../../transport/index.js';
import type { Logger } from '../../log.js';
import { SETTLE_MS, within, type Service } from '../lifecycle.js';
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
  return {
    transport,
    broker,
    service: {
      name: 'transport',
      start: async () => undefined,
      async stop() {
        // What was published (a deregistration) is in the channel's buffer: a moment to write it before the connections close.
        if (broker) await new Promise((resolve) => setTimeout(resolve, 200));
        await transport.close();
      },
    },
    consuming: {
      name: 'broker consumers',
      start: async () => broker?.start(),
      async stop() {
        // The broker stops delivering to us at once, so another server takes over what we would have held.
        if (broker) await within(broker.stopConsuming(SETTLE_MS), SETTLE_MS + 1000);
      },
    },
  };
}
