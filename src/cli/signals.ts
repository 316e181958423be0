import type { Logger } from '../log.js';
import { cycleLogLevelOnSigusr1 } from './log-level-signal.js';

/**
 * The daemon's signals, for every role: SIGTERM and SIGINT stop, SIGHUP reloads, SIGUSR1 cycles the log level.
 * Installed as soon as the logger exists and never removed (removing a listener could drop a signal already
 * received but not dispatched): a stop that arrives during start-up is remembered and honoured once it completes.
 */
export class DaemonSignals {
  private early: string | null = null;
  private stopNow: ((signal: string) => void) | null = null;
  private reloadNow: (() => void) | null = null;

  constructor(logger: Logger, level: string) {
    cycleLogLevelOnSigusr1(logger, level);
    process.on('SIGTERM', () => this.requestStop('SIGTERM'));
    process.on('SIGINT', () => this.requestStop('SIGINT'));
    process.on('SIGHUP', () => this.reloadNow?.());
  }

  /** Start-up is complete: signals act from now on; returns the stop signal that arrived before, if any. */
  act(stop: (signal: string) => void, reload: () => void): string | null {
    this.stopNow = stop;
    this.reloadNow = reload;
    return this.early;
  }

  private requestStop(signal: string): void {
    if (this.stopNow) this.stopNow(signal);
    else this.early ??= signal;
  }
}
