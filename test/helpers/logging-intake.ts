import type { Logger } from 'pino';
import type { CheckResult, ResultIntake } from '../../src/execute/result.js';

/** An intake for client tests: results are logged, and the test listens for them. */
export class LoggingIntake implements ResultIntake {
  private readonly listeners: ((result: CheckResult) => void)[] = [];

  constructor(private readonly logger: Logger) {}

  onResult(listener: (result: CheckResult) => void): void {
    this.listeners.push(listener);
  }

  async submit(result: CheckResult): Promise<void> {
    this.logger.debug({ client: result.client, check: result.check.name, status: result.check.status, output: result.check.output }, 'result received');
    for (const listener of this.listeners) listener(result);
  }
}
