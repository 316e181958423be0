import { pino, type Logger, type LevelWithSilent } from 'pino';
import { redactOutput } from './config/redact.js';

// The spec's levels; panic maps onto pino's fatal, trace stays trace.
export const LOG_LEVELS = ['panic', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

function toPinoLevel(level: LogLevel | 'silent'): LevelWithSilent {
  return level === 'panic' ? 'fatal' : level;
}

// SIGUSR1 raises verbosity one step; after trace it wraps to error (spec §7).
export function nextLogLevel(current: string): LogLevel {
  const order: LogLevel[] = ['error', 'warn', 'info', 'debug', 'trace'];
  const index = order.indexOf(current as LogLevel);
  return index < 0 || index === order.length - 1 ? 'error' : order[index + 1]!;
}

export function createLogger(level: LogLevel | 'silent' = 'info', destination: number | NodeJS.WritableStream = 2): Logger {
  return pino(
    {
      level: toPinoLevel(level),
      base: { name: 'checkbridge' },
      // The APIs' policy for log lines too: any depth, any case.
      formatters: { log: (object) => redactOutput(object) as Record<string, unknown> },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    typeof destination === 'number' ? pino.destination({ fd: destination, sync: true }) : destination,
  );
}

export type { Logger };
