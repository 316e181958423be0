import { createLogger, isLogLevel, type LogFormat, type LogLevel, type Logger } from '../log.js';
import { CheckbridgeError } from '../errors.js';

/** The settings' top-level `log-level`; read at start only, so a change applies at restart. */
export function settingsLogLevel(raw: Record<string, unknown>): string | undefined {
  const value = Object.hasOwn(raw, 'log-level') ? raw['log-level'] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * --log-level beats CHECKBRIDGE_LOG_LEVEL beats the settings' `log-level` beats info; an unknown level is the legacy error.
 * --log-format (or CHECKBRIDGE_LOG_FORMAT) json or pretty; by default pretty when stderr is a terminal, JSON otherwise.
 */
export function loggerFrom(
  flag: string | undefined,
  configured?: string,
  formatFlag?: string,
  env = process.env,
  terminal = process.stderr.isTTY === true,
): { logger: Logger; level: LogLevel } {
  const level = flag ?? env.CHECKBRIDGE_LOG_LEVEL ?? configured ?? 'info';
  if (!isLogLevel(level)) throw new CheckbridgeError('CB_LOG_LEVEL', level);
  const format = formatFlag ?? env.CHECKBRIDGE_LOG_FORMAT ?? (terminal ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty') throw new CheckbridgeError('CB_CLI_USAGE', `--log-format: json or pretty, not ${format}`);
  return { logger: createLogger(level, 2, format as LogFormat), level };
}
