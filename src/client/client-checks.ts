import type { Logger } from 'pino';
import { within, type Service } from '../service.js';
import type { ClientRole } from './client-role.js';

/** The client's checks as a service: at stop, those running get until the deadline, then their processes are stopped. */
export class ClientChecks implements Service {
  readonly name = 'checks';

  constructor(
    private readonly client: Pick<ClientRole, 'stop'>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {}

  async stop(deadline: number): Promise<void> {
    if (!(await within(this.client.stop(), deadline - Date.now()))) this.logger.warn({ checks: true }, 'still running at stop: their processes are stopped');
  }
}
