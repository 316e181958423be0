import type { Channel, ConsumeMessage } from 'amqplib';

/**
 * One channel's acknowledgements, sent once per turn: the settled run at the head of what the channel delivered goes
 * as one `basic.ack multiple=true` (legal: every acknowledged delivery up to that tag is ours and settled), the rest
 * one by one. A group commit of N results thus costs one frame, not N; nothing waits behind a slow neighbour.
 */
export class ChannelAcks {
  /** Deliveries awaiting acknowledgement, in delivery order (no-ack deliveries are never here). */
  private readonly pending = new Map<number, ConsumeMessage>();
  private readonly settled = new Set<number>();
  private scheduled = false;

  constructor(private readonly channel: Channel) {}

  delivered(message: ConsumeMessage): void {
    this.pending.set(message.fields.deliveryTag, message);
  }

  ack(message: ConsumeMessage): void {
    const tag = message.fields.deliveryTag;
    if (!this.pending.has(tag)) return;
    this.settled.add(tag);
    if (this.scheduled) return;
    this.scheduled = true;
    // After the turn: every result of one group commit resolves in the same turn.
    setImmediate(() => this.flush());
  }

  /** Back to the queue at once, before any later `multiple` ack could cover it. */
  requeue(message: ConsumeMessage): void {
    const tag = message.fields.deliveryTag;
    if (!this.pending.delete(tag)) return;
    this.settled.delete(tag);
    quietly(() => this.channel.nack(message, false, true));
  }

  private flush(): void {
    this.scheduled = false;
    let head: ConsumeMessage | null = null;
    let run = 0;
    for (const [tag, message] of this.pending) {
      if (!this.settled.has(tag)) break;
      head = message;
      run++;
      this.pending.delete(tag);
      this.settled.delete(tag);
    }
    if (head) quietly(() => this.channel.ack(head, run > 1));
    for (const tag of this.settled) {
      const message = this.pending.get(tag)!;
      this.pending.delete(tag);
      quietly(() => this.channel.ack(message, false));
    }
    this.settled.clear();
  }
}

function quietly(operation: () => void): void {
  try {
    operation();
  } catch {
    // The channel is gone: the broker requeues what we had not acknowledged.
  }
}
