import { nextLogLevel, pinoLevelOf, type Logger } from '../log.js';

/**
 * `kill -USR1` raises verbosity one level and logs the new level, in every role. Installed as soon as the logger
 * exists: until a listener is there, SIGUSR1 opens Node's inspector (a local debugger port) instead.
 */
export function cycleLogLevelOnSigusr1(logger: Logger, level: string): void {
  let current = level;
  process.on('SIGUSR1', () => {
    const next = nextLogLevel(current);
    // Reported at info even when the new level is quieter: the line is written before the quieter level applies.
    logger.level = 'info';
    logger.info({ log_level: next, previous_log_level: current }, 'SIGUSR1: log level changed');
    logger.level = pinoLevelOf(next);
    current = next;
  });
}
