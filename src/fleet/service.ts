import { FailureReport, type Service } from '../service.js';
import { consumeFleet, type FleetConsumerDeps } from './fleet-consumer.js';

/** The server's side of a broker: legacy clients' keepalives and results, consumed from when the broker's consumers start. */
export class Fleet implements Service {
  readonly name = 'fleet consumer';
  private readonly failures = new FailureReport();

  constructor(private readonly deps: FleetConsumerDeps) {}

  onFailure(report: (error: Error) => void): void {
    this.failures.listen(report);
  }

  // Registers the consumers: deliveries begin once the broker's consumers start, after this.
  async start(): Promise<void> {
    consumeFleet(this.deps);
  }

  async stop(): Promise<void> {}
}
