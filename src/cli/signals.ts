import { nextLogLevel, pinoLevelOf, type Logger } from '../log.js';

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
    // Installed as soon as the logger exists: until a listener is there, SIGUSR1 opens Node's inspector instead.
    process.on('SIGUSR1', () => (level = raiseLogLevel(logger, level)));
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

/** `kill -USR1` raises verbosity one level (wrapping) and logs the new level; returns it. */
function raiseLogLevel(logger: Logger, current: string): string {
  const next = nextLogLevel(current);
  // Reported at info even when the new level is quieter: the line is written before the quieter level applies.
  logger.level = 'info';
  logger.info({ log_level: next, previous_log_level: current }, 'SIGUSR1: log level changed');
  logger.level = pinoLevelOf(next);
  return next;
}
