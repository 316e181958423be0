export { isSharedQueue, isWire, transportInfo, type Transport, type CheckRequest, type WireTransport, type WireDelivery, type PipeType, type QueueStats, type TransportInfo } from './transport.js';
export { InProcessTransport } from './in-process.js';
