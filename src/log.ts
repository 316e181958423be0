import { isatty } from 'node:tty';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { createRequire } from 'node:module';
import type * as PinoPretty from 'pino-pretty';
import { redactOutput } from './config/redact.js';
import { LogDestination } from './log-destination.js';

// The spec's levels; panic maps onto pino's fatal, trace stays trace.
const LOG_LEVELS = ['panic', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

function toPinoLevel(level: LogLevel | 'silent'): LevelWithSilent {
  return level === 'panic' ? 'fatal' : level;
}

// SIGUSR1 raises verbosity one step (panic, fatal, error, … trace); after trace it wraps to error.
export function nextLogLevel(current: string): LogLevel {
  const index = LOG_LEVELS.indexOf(current as LogLevel);
  return index < 0 || index === LOG_LEVELS.length - 1 ? 'error' : LOG_LEVELS[index + 1]!;
}

/** The level pino runs at for one of ours. */
export function pinoLevelOf(level: LogLevel): LevelWithSilent {
  return toPinoLevel(level);
}

export type LogFormat = 'json' | 'pretty';

// Human-readable: one line a record (its fields after the message), colours only for a terminal, never into a file.
function prettyDestination(fd: number): NodeJS.WritableStream {
  // Loaded only for this format: a daemon logging JSON never loads it.
  const { build } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return build({ destination: fd, sync: true, colorize: isatty(fd), singleLine: true, translateTime: 'SYS:standard', ignore: 'pid,hostname' });
}

/** JSON lines, or human-readable lines (for a terminal), to the same file descriptor; JSON never waits on its reader. */
export function createLogger(level: LogLevel | 'silent' = 'info', destination: number | NodeJS.WritableStream = 2, format: LogFormat = 'json'): Logger {
  const out = typeof destination === 'number' ? (format === 'pretty' ? prettyDestination(destination) : new LogDestination(destination)) : destination;
  return pino(
    {
      level: toPinoLevel(level),
      base: { name: 'checkbridge' },
      // The APIs' policy for log lines too: any depth, any case.
      formatters: { log: (object) => redactOutput(object) as Record<string, unknown> },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    out,
  );
}

export type { Logger };
