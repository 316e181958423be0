import type { Command } from 'commander';
import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { CheckbridgeError } from '../errors.js';
import { InProcessTransport, type Transport, type WireTransport } from '../transport/index.js';
import { RabbitTransport } from '../transport/index.js';
import { rabbitEndpoints } from '../transport/index.js';
import { RedisTransport } from '../transport/index.js';
import { redisOptions } from '../transport/index.js';
import { clientQueueName } from '../transport/index.js';
import { keepalivePayload } from '../client/index.js';
import { WireResults } from '../client/index.js';
import { configuredTransportName, resultBufferOf } from '../config/index.js';

export type Role = 'server' | 'client' | 'both';
export type TransportName = 'local' | 'rabbitmq' | 'redis';

export interface FleetFlags {
  role?: string;
  transport?: string;
}

/** `--role` and `--transport` on `run`. */
export function withFleetOptions(command: Command): Command {
  return command
    .option('--role <role>', 'server, client or both (env CHECKBRIDGE_ROLE; default both: one process, in-process transport)')
    .option('--transport <name>', 'local, rabbitmq or redis (env CHECKBRIDGE_TRANSPORT; settings transport.name for --role server/client)');
}

export function roleFrom(flags: FleetFlags, env = process.env): Role {
  const role = flags.role ?? env.CHECKBRIDGE_ROLE ?? 'both';
  if (role !== 'server' && role !== 'client' && role !== 'both')
    throw new CheckbridgeError('CB_CLI_USAGE', `--role must be server, client or both, not ${role}`);
  return role;
}

/**
 * Flag beats CHECKBRIDGE_TRANSPORT beats `transport.name` (SENSU_TRANSPORT_NAME included) — except that a single
 * process (`both`) stays on the in-process bus unless the flag or variable asks otherwise: every legacy config
 * says rabbitmq by default, and one process needs no broker.
 */
export function transportNameFrom(role: Role, flags: FleetFlags, settings: Settings, env = process.env): TransportName {
  const configured = configuredTransportName(settings);
  const name = flags.transport ?? env.CHECKBRIDGE_TRANSPORT ?? (role === 'both' ? 'local' : typeof configured === 'string' ? configured : 'rabbitmq');
  if (name !== 'local' && name !== 'rabbitmq' && name !== 'redis')
    throw new CheckbridgeError('CB_CONFIG_REFUSED', `transport name must be local, rabbitmq or redis, not ${name}`);
  if (name === 'local' && role !== 'both') throw new CheckbridgeError('CB_CLI_USAGE', `--role ${role} needs a broker: --transport rabbitmq or redis`);
  return name;
}

/** The transport for these settings; a broker's is not started yet (`start()` once its consumers are registered). */
export function openTransport(name: TransportName, settings: Settings, startedMs: number, logger: Logger): Transport {
  if (name === 'local') return new InProcessTransport();
  if (name === 'redis') return new RedisTransport(redisOptions(settings.raw.redis), logger);
  return new RabbitTransport(rabbitEndpoints(settings.raw.rabbitmq), clientQueueName(String(settings.client.name), startedMs), logger);
}

/** A client over a broker: results to `results` (buffered while away), keepalives to `keepalives`, one at every (re)connect. */
export function wireClient(transport: WireTransport, current: () => Settings, logger: Logger): { results: WireResults; keepalive: () => void } {
  const results = new WireResults(transport, logger, () => resultBufferOf(current()));
  const keepalive = () => {
    // A keepalive sent while the broker is away is lost, as legacy's is: the next one follows in 20 s.
    transport.send('direct', 'keepalives', JSON.stringify(keepalivePayload(current(), Date.now())));
  };
  transport.onConnected(keepalive);
  return { results, keepalive };
}
