import type { Logger } from 'pino';
import type { Leadership } from '../cluster/index.js';
import type { BridgeSender } from '../bridge/index.js';
import type { Keepalives } from '../keepalives/index.js';
import type { WireTransport } from '../transport/index.js';
import type { Service } from '../service.js';
import type { Scheduling } from './service.js';

/** Whether the once-per-cluster work may go out now: asked by each part of it as it goes. */
export class DutyGate {
  constructor(
    private readonly leadership: Pick<Leadership, 'isLeader'>,
    private readonly broker: Pick<WireTransport, 'connected'> | null,
  ) {}

  /** Whether leadership is still confirmed. */
  readonly leading = (): boolean => this.leadership.isLeader();

  /** Whether a monitors' pass may run: elected, and the broker (if any) connected. */
  readonly mayMonitor = (): boolean => !((this.broker && !this.broker.connected()) || !this.leadership.isLeader());
}

export interface ServerDutiesDeps {
  readonly leadership: Leadership;
  readonly broker: Pick<WireTransport, 'onConnected' | 'onDisconnected'> | null;
  readonly scheduling: Pick<Scheduling, 'lead' | 'brokerAway'>;
  readonly keepalives: Pick<Keepalives, 'lead' | 'follow' | 'reconnected'>;
  readonly sender: Pick<BridgeSender, 'start' | 'pause'> | null;
  readonly isStopping: () => boolean;
  readonly logger: Logger;
}

/**
 * The server role's switching, as the election's service: the once-per-cluster work (subscription-check scheduling,
 * the keepalive and TTL monitors, bridge sending) runs only while elected, and over a broker check requests and monitor
 * results pause while it is away (legacy pause and resume). Stopped late: the lock goes last of that work.
 */
export class ServerDuties implements Service {
  readonly name = 'leadership';

  constructor(private readonly deps: ServerDutiesDeps) {
    const { broker, scheduling } = deps;
    if (!broker) return;
    // Over a broker, nothing is scheduled until it is connected (legacy bootstraps then).
    scheduling.brokerAway(true);
    broker.onDisconnected(() => this.brokerAway());
    broker.onConnected(() => this.brokerBack());
  }

  async start(): Promise<void> {
    this.deps.leadership.start((leader) => this.elected(leader));
  }

  // Last of the once-per-cluster work stopped: the lock goes, and another server may take over at once.
  stop(): Promise<void> {
    return this.deps.leadership.close();
  }

  private elected(leader: boolean): void {
    const { scheduling, keepalives, sender, isStopping } = this.deps;
    if (isStopping()) return;
    scheduling.lead(leader);
    if (!leader) {
      // Lost: nothing more of it runs here, before anyone else could be elected.
      keepalives.follow();
      sender?.pause();
      return;
    }
    sender?.start();
    keepalives.lead();
  }

  private brokerAway(): void {
    this.deps.scheduling.brokerAway(true);
    this.deps.logger.warn('transport is not connected: check requests and monitors paused until it is');
  }

  private brokerBack(): void {
    if (this.deps.isStopping()) return;
    this.deps.scheduling.brokerAway(false);
    this.deps.keepalives.reconnected();
  }
}
