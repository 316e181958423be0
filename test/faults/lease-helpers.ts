// Shared by the leadership fault tests: what the elected server publishes, seen from the broker.
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';

export interface TappedRequest {
  /** When the tap received it (epoch ms). */
  readonly at: number;
  readonly name: string;
  readonly issued: number;
}

/** Every check request published to a subscription's fanout exchange (declared with the legacy flags), as it arrives. */
export async function requestTap(url: string, exchange: string) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'fanout', { durable: false, autoDelete: false, internal: false });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, '');
  const got: TappedRequest[] = [];
  await channel.consume(
    queue,
    (m) => {
      if (!m) return;
      const body = JSON.parse(m.content.toString());
      got.push({ at: Date.now(), name: body.name, issued: body.issued });
    },
    { noAck: true },
  );
  return { got, close: () => Promise.race([connection.close().catch(() => undefined), sleep(1000)]) };
}
