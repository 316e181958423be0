import type { Logger } from '../log.js';

/** One part of the daemon: started in the list's order, stopped in reverse, all within one grace. */
export interface Service {
  readonly name: string;
  start(): Promise<void>;
  /** Also called after a failed start-up, whether or not this one started: releases whatever it holds. */
  stop(deadline: number): Promise<void>;
}

// Checks and handlers get this long to finish at stop before their process groups are stopped.
export const STOP_GRACE_MS = 10_000;
// After the grace: how long stopped work gets to settle, and the stopped daemon to exit.
export const SETTLE_MS = 3000;

/** Whether `work` settled within `ms` (the timer never outlives the answer). */
export function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

/**
 * Starts services in order and stops them in reverse within one grace. A stop is only asked for once start-up is over
 * (signals before are latched), or when it failed: every service was built and took the first settings by then (the
 * scheduler's timers run from that moment), so every one is stopped.
 */
export class Lifecycle {
  private services: readonly Service[] = [];
  private stopping = false;
  private running = false;
  // Holds the event loop open from start until stop ends, whatever is listening.
  private alive: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly exit: () => void = () => process.exit(),
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
    try {
      for (const service of services) await service.start();
    } catch (error) {
      await this.stop('start-up failure');
      throw error;
    }
    this.running = true;
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
