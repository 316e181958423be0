import { BridgeSender } from '../../bridge/index.js';
import { bridgeSummary } from '../../bridge/index.js';
import type { bridgeConfigOf } from '../../bridge/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import type { DaemonStore } from './store.js';

export type BridgeView = { status: () => BridgeSender['status']; outbox: DaemonStore['store']['outbox'] };

/** The outbox sender to a remote v2 backend, when one is configured; sending itself is the elected server's. */
export function buildBridge(
  bridge: ReturnType<typeof bridgeConfigOf>,
  store: DaemonStore['store'],
  logger: Logger,
): { sender: BridgeSender | null; bridgeView: BridgeView | null; service: Service } {
  const sender = bridge ? new BridgeSender(store.outbox, bridge, logger) : null;
  const bridgeView = sender ? { status: () => sender.status, outbox: store.outbox } : null;
  let bridgeTimer: NodeJS.Timeout | undefined;
  const service: Service = {
    name: 'bridge',
    async start() {
      let bridgeTicks = 0;
      bridgeTimer = setInterval(() => {
        sender?.kick();
        // The outbox figures, once a minute while a bridge is configured.
        if (bridgeView && ++bridgeTicks % 60 === 0) logger.info({ component: 'bridge', ...bridgeSummary(bridgeView, Date.now()) }, 'bridge outbox');
      }, 1000);
    },
    async stop() {
      clearInterval(bridgeTimer);
      await sender?.stop();
    },
  };
  return { sender, bridgeView, service };
}
