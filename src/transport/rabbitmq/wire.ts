import type { Options } from 'amqplib';
import type { PipeType } from '../transport.js';

// Exactly the legacy flags: one mismatch is a 406 and a reconnect loop on the legacy side.
export const QUEUE_FLAGS: Options.AssertQueue = { durable: false, exclusive: false, autoDelete: true };
export const EXCHANGE_FLAGS: Options.AssertExchange = { durable: false, autoDelete: false, internal: false };
/** Every legacy message: transient, octet-stream, priority 0, routing key "", no headers. */
export const MESSAGE_PROPERTIES: Options.Publish = { contentType: 'application/octet-stream', deliveryMode: 1, priority: 0 };

/** A transport handler's `pipe.options` are exchange-declare options, in the AMQP gem's spelling. */
export function exchangeFlags(options: Record<string, unknown> = {}): Options.AssertExchange {
  const flag = (key: string, fallback: boolean) => (Object.hasOwn(options, key) ? options[key] === true : fallback);
  const args =
    Object.hasOwn(options, 'arguments') && typeof options.arguments === 'object' && options.arguments !== null
      ? (options.arguments as Record<string, unknown>)
      : undefined;
  return { durable: flag('durable', false), autoDelete: flag('auto_delete', false), internal: flag('internal', false), ...(args ? { arguments: args } : {}) };
}

/** `amq.<type>` of its own type and the nameless exchange are the broker's: never declared. */
export function isPredeclared(type: PipeType, pipe: string): boolean {
  return pipe === '' || pipe === `amq.${type}`;
}
