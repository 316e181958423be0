import type { CheckResult, ResultIntake } from '../execute/index.js';
import type { StateStore } from '../store/index.js';

/**
 * Where the monitors' results go over a broker: an agent's keepalive or TTL result, the server's own, into the local
 * intake, where no broker message can forge it; any other through the broker with the server's other results.
 */
export class MonitorResults implements ResultIntake {
  constructor(
    private readonly store: Pick<StateStore, 'getClient'>,
    private readonly local: ResultIntake,
    private readonly serverResults: ResultIntake,
  ) {}

  submit(result: CheckResult): Promise<void> {
    const agents = result.fromServer && this.store.getClient(result.client)?.entity_class === 'agent';
    return (agents ? this.local : this.serverResults).submit(result);
  }
}
