import type { Logger } from 'pino';
import type { Service } from '../service.js';
import { bridgeSummary, type BridgeView } from './metrics.js';
import type { BridgeSender } from './sender.js';

/**
 * The bridge as a service: the sender kicked every tick (a second) to send what waits, the outbox figures logged every
 * `summaryTicks` ticks (a minute) while a bridge is configured, and the sender stopped at stop.
 */
export class OutboxTicker implements Service {
  readonly name = 'bridge';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sender: Pick<BridgeSender, 'kick' | 'stop'> | null,
    private readonly view: BridgeView | null,
    private readonly logger: Logger,
    private readonly tickMs = 1000,
    private readonly summaryTicks = 60,
  ) {}

  async start(): Promise<void> {
    let ticks = 0;
    this.timer = setInterval(() => {
      this.sender?.kick();
      // The outbox figures, once a minute while a bridge is configured.
      if (this.view && ++ticks % this.summaryTicks === 0) this.logger.info({ component: 'bridge', ...bridgeSummary(this.view, Date.now()) }, 'bridge outbox');
    }, this.tickMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sender?.stop();
  }
}
