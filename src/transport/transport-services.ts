import { setTimeout as sleep } from 'node:timers/promises';
import { within, type Service } from '../service.js';
import { isWire, type Transport, type WireTransport } from './transport.js';

// What a broker was given just before the stop (a deregistration) is still in its channel's buffer this long.
const WRITE_MS = 200;

/** The transport's connections as a service: closed at stop, last but the store. */
export class TransportConnections implements Service {
  readonly name = 'transport';

  constructor(private readonly transport: Transport) {}

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    // What was published (a deregistration) is in the channel's buffer: a moment to write it before the connections close.
    if (isWire(this.transport)) await sleep(WRITE_MS);
    await this.transport.close();
  }
}

/** The broker's consumers as a service: consuming once every consumer is registered; at stop, the first thing after the scheduler. */
export class BrokerConsumers implements Service {
  readonly name = 'broker consumers';

  constructor(
    private readonly broker: WireTransport | null,
    private readonly settleMs: number,
  ) {}

  async start(): Promise<void> {
    this.broker?.start();
  }

  async stop(): Promise<void> {
    // The broker stops delivering to us at once, so another server takes over what we would have held.
    if (this.broker) await within(this.broker.stopConsuming(this.settleMs), this.settleMs + 1000);
  }
}
