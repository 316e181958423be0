import type { Logger } from 'pino';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import type { WireTransport } from '../transport/index.js';
import { DEFAULT_RESULT_BUFFER } from '../config/index.js';

/** The legacy result body: `{client, check, signature}` in that order, nothing of ours. */
function resultBody(result: CheckResult): string {
  return JSON.stringify({ client: result.client, check: result.check, ...(result.signature !== undefined ? { signature: result.signature } : {}) });
}

/**
 * A client's results go to the `results` pipe. While not connected they wait in memory, up to `limit`
 * (legacy drops them), and are published in order once the transport is back.
 */
export class WireResults implements ResultIntake {
  private readonly waiting: string[] = [];
  private dropped = 0;
  private readonly log: Logger;

  constructor(
    private readonly transport: WireTransport,
    logger: Logger,
    private readonly limit: () => number = () => DEFAULT_RESULT_BUFFER,
  ) {
    this.log = logger.child({ component: 'results' });
    // Declared from here too (legacy flags, so wire-compatible): what is flushed before a server has declared
    // `results` again after a broker restart waits in it rather than being dropped as unroutable.
    transport.route('results', 'results');
    transport.onConnected(() => this.flush());
  }

  get buffered(): number {
    return this.waiting.length;
  }

  async submit(result: CheckResult): Promise<void> {
    const body = resultBody(result);
    if (this.waiting.length === 0 && this.transport.send('direct', 'results', body)) return;
    this.waiting.push(body);
    if (this.waiting.length === 1) this.log.warn('transport is not connected: buffering results until it is');
    while (this.waiting.length > Math.max(0, this.limit())) {
      this.waiting.shift();
      if (this.dropped++ % 1000 === 0) this.log.error({ dropped: this.dropped, limit: this.limit() }, 'result buffer full: dropping the oldest results');
    }
  }

  private flush(): void {
    let sent = 0;
    while (this.waiting.length > 0 && this.transport.send('direct', 'results', this.waiting[0]!)) {
      this.waiting.shift();
      sent++;
    }
    if (sent > 0) this.log.info({ published: sent, still_buffered: this.waiting.length }, 'published buffered results');
  }
}
