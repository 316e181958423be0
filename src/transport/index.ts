export {
  isSharedQueue,
  isWire,
  transportInfo,
  type Transport,
  type CheckRequest,
  type WireTransport,
  type WireDelivery,
  type PipeType,
  type QueueStats,
  type TransportInfo,
} from './transport.js';
export { InProcessTransport } from './in-process.js';
export { rabbitEndpoints } from './rabbitmq/settings.js';
export { RabbitTransport } from './rabbitmq/transport.js';
export { redisOptions } from './redis/settings.js';
export { RedisTransport } from './redis/transport.js';
export { clientQueueName } from './wire-names.js';
export { BrokerConsumers, TransportConnections } from './transport-services.js';
