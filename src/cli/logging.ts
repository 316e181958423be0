import { createLogger, isLogLevel, type LogLevel, type Logger } from '../log.js';
import { CheckbridgeError } from '../errors.js';

/** --log-level beats CHECKBRIDGE_LOG_LEVEL beats info; an unknown level is the legacy error. */
export function loggerFrom(flag: string | undefined, env = process.env): { logger: Logger; level: LogLevel } {
  const level = flag ?? env.CHECKBRIDGE_LOG_LEVEL ?? 'info';
  if (!isLogLevel(level)) throw new CheckbridgeError('CB_LOG_LEVEL', level);
  return { logger: createLogger(level), level };
}
