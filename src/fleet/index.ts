// The fleet: results and keepalives of legacy clients from the broker.
export { consumeFleet } from './fleet-consumer.js';
export { Fleet } from './service.js';
