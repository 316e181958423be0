export { isSharedQueue, type Transport, type CheckRequest } from './transport.js';
export { InProcessTransport } from './in-process.js';
