import { isSharedQueue, type CheckRequest, type Transport } from './transport.js';

interface Consumer {
  readonly id: string;
  readonly handler: (request: CheckRequest, subscription: string) => void;
}

/** The default transport: one process, delivery on the next tick, each consumer its own copy. */
export class InProcessTransport implements Transport {
  private readonly subscriptions = new Map<string, Consumer[]>();
  private readonly cursors = new Map<string, number>();

  publish(subscription: string, request: CheckRequest): void {
    const consumers = this.subscriptions.get(subscription) ?? [];
    if (consumers.length === 0) return;
    let targets = consumers;
    if (isSharedQueue(subscription)) {
      const cursor = (this.cursors.get(subscription) ?? 0) % consumers.length;
      this.cursors.set(subscription, cursor + 1);
      targets = [consumers[cursor]!];
    }
    for (const consumer of targets) {
      const copy = structuredClone(request);
      setImmediate(() => consumer.handler(copy, subscription));
    }
  }

  subscribe(subscription: string, consumer: string, handler: Consumer['handler']): () => void {
    const entry: Consumer = { id: consumer, handler };
    this.subscriptions.set(subscription, [...(this.subscriptions.get(subscription) ?? []), entry]);
    return () => {
      const rest = (this.subscriptions.get(subscription) ?? []).filter((c) => c !== entry);
      if (rest.length > 0) this.subscriptions.set(subscription, rest);
      else this.subscriptions.delete(subscription);
    };
  }

  async close(): Promise<void> {
    this.subscriptions.clear();
  }
}
