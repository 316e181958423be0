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
  private drained: (() => void)[] = [];

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

  /** Resolves once every delivery is settled, or after `ms`; true when settled. */
  settledWithin(ms: number): Promise<boolean> {
    if (this.pending.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.drained.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** After basic.recover: the broker took them all back, so late acknowledgements of them are not sent. */
  forget(): void {
    this.pending.clear();
    this.settled.clear();
    this.notifyDrained();
  }

  /** Back to the queue at once, before any later `multiple` ack could cover it. */
  requeue(message: ConsumeMessage): void {
    const tag = message.fields.deliveryTag;
    if (!this.pending.delete(tag)) return;
    this.settled.delete(tag);
    quietly(() => this.channel.nack(message, false, true));
    this.notifyDrained();
  }

  private notifyDrained(): void {
    if (this.pending.size === 0) for (const resolve of this.drained.splice(0)) resolve();
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
    this.notifyDrained();
  }
}

function quietly(operation: () => void): void {
  try {
    operation();
  } catch {
    // The channel is gone: the broker requeues what we had not acknowledged.
  }
}
