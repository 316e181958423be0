import type { Logger } from 'pino';
import { deepMerge, type Settings } from '../config/index.js';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import type { Service } from '../service.js';

export interface KeepaliveSessionDeps {
  /** The settings in force. */
  readonly settings: () => Settings;
  /** Sends this client's keepalive. */
  readonly keepalive: (settings: Settings) => void;
  /** Where the deregistration goes: the server's intake in one process, the broker otherwise. */
  readonly intake: ResultIntake;
  /** Between keepalives: the interval of the settings at start-up. */
  readonly intervalMs: number;
  /** Whether start-up completed: a start-up failure does not deregister. */
  readonly isRunning: () => boolean;
  readonly logger: Logger;
}

/** The client's keepalives while it runs, and its deregistration on the way out when its settings ask for one. */
export class KeepaliveSession implements Service {
  readonly name = 'keepalives';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: KeepaliveSessionDeps) {}

  async start(): Promise<void> {
    const { keepalive, settings, intervalMs } = this.deps;
    this.timer = setInterval(() => keepalive(settings()), intervalMs);
  }

  async stop(): Promise<void> {
    const { settings, intake, isRunning, logger } = this.deps;
    const current = settings();
    // A client that asks to deregister says so once, on the way out.
    if (current.client.deregister === true && isRunning())
      await intake.submit(deregistrationOf(current, Math.floor(Date.now() / 1000))).catch((error) => logger.error({ err: error }, 'deregistration failed'));
    clearInterval(this.timer);
  }
}

/** The client's deregistration result: its settings over the defaults (status 0 included), name, output and times forced. */
export function deregistrationOf(s: Settings, now: number): CheckResult {
  const check = deepMerge({ handler: 'deregistration', status: 1 }, s.client.deregistration ?? {}) as Record<string, unknown>;
  const status = typeof check.status === 'number' ? check.status : 1;
  return {
    client: String(s.client.name),
    check: { ...check, name: 'deregistration', output: 'client initiated deregistration', status, issued: now, executed: now },
  };
}
