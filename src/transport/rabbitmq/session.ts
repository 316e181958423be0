// A RabbitMQ session: the two connections, their channels and what has been declared on them.
import { createRequire } from 'node:module';
import type { Channel, ChannelModel, ConfirmChannel } from 'amqplib';
import type * as Amqp from 'amqplib';
import type { Logger } from 'pino';
import type { PipeType } from '../transport.js';
import type { RabbitEndpoint } from './settings.js';
import { EXCHANGE_FLAGS, MESSAGE_PROPERTIES, QUEUE_FLAGS, exchangeFlags, isPredeclared } from './wire.js';
import { ChannelAcks } from './acks.js';

/** Two connections, one channel each: primary subscribes, counts and sends keepalives; secondary sends the rest. */
export interface Session {
  readonly generation: number;
  readonly primary: ChannelModel;
  readonly secondary: ChannelModel;
  readonly main: Channel;
  readonly other: Channel;
  /** On the secondary connection too: results, each confirmed by the broker. */
  readonly confirms: ConfirmChannel;
  /** The primary channel's acknowledgements: every consumer is on it. */
  readonly acks: ChannelAcks;
  /** Exchange declarations per channel, each awaited before its first publish. */
  readonly declared: Map<string, Promise<unknown>>;
  readonly queues: Set<string>;
  readonly consumers: Map<string, string>;
  /** Declarations run one after another, in the order they were asked for. */
  chain: Promise<void>;
}

/** Both connections and their channels; each connection goes into `opened` as it opens, so a failed attempt can close it. */
export async function openSession(endpoint: RabbitEndpoint, generation: number, opened: ChannelModel[], superseded: () => boolean): Promise<Session> {
  // The client library is loaded by the first connection: a daemon on another transport never loads it.
  const amqp = createRequire(import.meta.url)('amqplib') as typeof Amqp;
  const primary = await amqp.connect(endpoint.connect, endpoint.socket);
  opened.push(primary);
  const secondary = await amqp.connect(endpoint.connect, endpoint.socket);
  opened.push(secondary);
  const main = await primary.createChannel();
  const other = await secondary.createChannel();
  const confirms = await secondary.createConfirmChannel();
  await main.prefetch(endpoint.prefetch, false);
  await other.prefetch(endpoint.prefetch, false);
  if (superseded()) throw new Error('superseded');
  return {
    generation,
    primary,
    secondary,
    main,
    other,
    confirms,
    acks: new ChannelAcks(main),
    declared: new Map(),
    queues: new Set(),
    consumers: new Map(),
    chain: Promise.resolve(),
  };
}

/** Errors are logged; any connection or channel closing loses the whole session. */
export function watchSession(session: Session, log: Logger, lost: (reason: string) => void): void {
  for (const connection of [session.primary, session.secondary]) {
    connection.on('error', (error: Error) => log.warn({ error: error.message }, 'transport connection error'));
    connection.on('close', () => lost('tcp connection lost'));
  }
  for (const channel of [session.main, session.other, session.confirms]) {
    channel.on('error', (error: Error) => log.warn({ error: error.message }, 'rabbitmq channel error'));
    channel.on('close', () => lost('rabbitmq channel closed'));
  }
}

/** The declaration of exchange `pipe` on `channel`, asked once per session and channel. */
export function declaredExchange(session: Session, channel: Channel, type: PipeType, pipe: string, options?: Record<string, unknown>): Promise<unknown> {
  const key = `${channel === session.main ? 'primary' : channel === session.other ? 'secondary' : 'confirms'}\0${type}\0${pipe}`;
  let declared = session.declared.get(key);
  if (!declared) {
    declared = isPredeclared(type, pipe) ? Promise.resolve() : channel.assertExchange(pipe, type, options ? exchangeFlags(options) : EXCHANGE_FLAGS);
    // A refused declaration closes the channel, and that reconnects; the publish waits on it so it never precedes it.
    declared = declared.catch(() => undefined);
    session.declared.set(key, declared);
  }
  return declared;
}

/**
 * A message on `channel` once its exchange is declared. On the confirm channel `settled` hears the broker's answer, or
 * false when the channel closed first; elsewhere a message on a closed channel is lost, as legacy's would be.
 */
export function publishDeclared(
  session: Session,
  channel: Channel,
  type: PipeType,
  pipe: string,
  body: string,
  options?: Record<string, unknown>,
  settled?: (confirmed: boolean) => void,
): void {
  const content = Buffer.from(body);
  void declaredExchange(session, channel, type, pipe, options).then(() => {
    try {
      if (settled) (channel as ConfirmChannel).publish(pipe, '', content, MESSAGE_PROPERTIES, (error) => settled(!error));
      else channel.publish(pipe, '', content, MESSAGE_PROPERTIES);
    } catch {
      settled?.(false);
    }
  });
}

/** The queue with the legacy flags, so that a legacy server's own declaration of it agrees. */
export async function declareRoute(session: Session, funnel: string, pipe: string): Promise<void> {
  if (!session.queues.has(funnel)) {
    await session.main.assertQueue(funnel, QUEUE_FLAGS);
    session.queues.add(funnel);
  }
  await session.main.assertExchange(pipe, 'direct', EXCHANGE_FLAGS);
  await session.main.bindQueue(funnel, pipe, '');
}

export async function closeQuietly(session: Session): Promise<void> {
  await Promise.allSettled([session.primary.close(), session.secondary.close()]);
}
