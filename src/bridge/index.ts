// The bridge to a v2 backend: its settings, sender and figures. What other folders may use of it.
export { bridgeConfigOf } from './config.js';
export { bridgeSummary, prometheusText, type BridgeView } from './metrics.js';
export { BridgeSender } from './sender.js';
export { OutboxTicker } from './outbox-ticker.js';
