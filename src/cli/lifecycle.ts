import type { Logger } from '../log.js';
import type { Service } from '../service.js';

export { within, type Service } from '../service.js';

// Checks and handlers get this long to finish at stop before their process groups are stopped.
export const STOP_GRACE_MS = 10_000;
// After the grace: how long stopped work gets to settle, and the stopped daemon to exit.
export const SETTLE_MS = 3000;

/**
 * Starts services in order and stops them in reverse within one grace. A stop is only asked for once start-up is over
 * (signals before are latched), or when it failed: every service was built and took the first settings by then (the
 * scheduler's timers run from that moment), so every one is stopped. A service that reports a failure after start
 * stops the daemon, which exits non-zero rather than running without it; one reported during start-up fails it.
 */
export class Lifecycle {
  private services: readonly Service[] = [];
  private stopping = false;
  private running = false;
  // Holds the event loop open from start until stop ends, whatever is listening.
  private alive: NodeJS.Timeout | undefined;
  // A failure reported during start-up: acted on once every start has returned.
  private failure: Error | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly exit: (code?: number) => void = (code) => process.exit(code),
  ) {}

  isStopping(): boolean {
    return this.stopping;
  }

  /** Whether start-up completed (a stop during a failed start-up is not a normal stop). */
  isRunning(): boolean {
    return this.running;
  }

  async start(services: readonly Service[]): Promise<void> {
    this.services = services;
    this.alive = setInterval(() => undefined, 1 << 30);
    for (const service of services) service.onFailure?.((error) => void this.failed(service.name, error));
    try {
      for (const service of services) await service.start();
      if (this.failure) throw this.failure;
    } catch (error) {
      await this.stop('start-up failure');
      throw error;
    }
    this.running = true;
  }

  /** A service can no longer do its work: logged, and the daemon stops and exits non-zero. */
  private async failed(service: string, error: Error): Promise<void> {
    if (this.stopping) return void this.logger.debug({ err: error, service }, 'service failed while stopping');
    this.logger.error({ err: error, service }, 'service failed: stopping');
    if (!this.running) return void (this.failure ??= error);
    await this.stop(`failure of ${service}`);
    this.exit(1);
  }

  async stop(signal: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.logger.info({ signal }, 'stopping');
    const deadline = Date.now() + STOP_GRACE_MS;
    for (const service of [...this.services].reverse()) {
      this.logger.debug({ service: service.name }, 'stopping service');
      // One part that fails to stop does not keep the others open.
      await service.stop(deadline).catch((error) => this.logger.error({ err: error, service: service.name }, 'stopping failed'));
    }
    clearInterval(this.alive);
    this.logger.info('stopped');
    // A handler's socket can outlive its timeout budget; the stop stays bounded regardless.
    setTimeout(() => {
      this.logger.warn('still busy after stopping: exiting');
      this.exit();
    }, SETTLE_MS).unref();
  }
}
