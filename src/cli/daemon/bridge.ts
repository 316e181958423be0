import { BridgeSender, OutboxTicker } from '../../bridge/index.js';
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
  return { sender, bridgeView, service: new OutboxTicker(sender, bridgeView, logger) };
}
