import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DaemonSignals } from '../../src/cli/signals.js';
import { capturedLogger } from '../helpers/log-capture.js';

// process.emit runs the installed listeners as a delivered signal would, without signalling the test process.
const deliver = (signal: NodeJS.Signals) => process.emit(signal, signal);

test('a stop during start-up is remembered, the first one wins, and it is returned once start-up completes', (t) => {
  const before = listenersNow();
  const { logger } = capturedLogger();
  const signals = new DaemonSignals(logger, 'info');
  t.after(() => removeListenersAddedSince(before));
  deliver('SIGINT');
  deliver('SIGTERM');
  const stops: string[] = [];
  assert.equal(
    signals.act(
      (signal) => stops.push(signal),
      () => undefined,
    ),
    'SIGINT',
  );
  assert.deepEqual(stops, [], 'an early stop is for the caller to honour');
});

test('after start-up SIGTERM and SIGINT stop with their name and SIGHUP reloads', (t) => {
  const before = listenersNow();
  const { logger } = capturedLogger();
  const signals = new DaemonSignals(logger, 'info');
  t.after(() => removeListenersAddedSince(before));
  deliver('SIGHUP');
  const stops: string[] = [];
  let reloads = 0;
  assert.equal(
    signals.act(
      (signal) => stops.push(signal),
      () => reloads++,
    ),
    null,
    'a reload before start-up is no stop',
  );
  deliver('SIGHUP');
  deliver('SIGTERM');
  deliver('SIGINT');
  assert.deepEqual(stops, ['SIGTERM', 'SIGINT']);
  assert.equal(reloads, 1, 'a SIGHUP before start-up completes reloads nothing');
});

test('SIGUSR1 raises the log level one step at a time, wrapping to error, each change logged at info', (t) => {
  const before = listenersNow();
  const { logger, lines } = capturedLogger();
  logger.level = 'warn';
  new DaemonSignals(logger, 'warn');
  t.after(() => removeListenersAddedSince(before));
  deliver('SIGUSR1');
  assert.equal(logger.level, 'info');
  deliver('SIGUSR1');
  deliver('SIGUSR1');
  assert.equal(logger.level, 'trace');
  deliver('SIGUSR1');
  assert.equal(logger.level, 'error');
  logger.info('not written at error');
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg, l.previous_log_level, l.log_level]),
    [
      [30, 'SIGUSR1: log level changed', 'warn', 'info'],
      [30, 'SIGUSR1: log level changed', 'info', 'debug'],
      [30, 'SIGUSR1: log level changed', 'debug', 'trace'],
      [30, 'SIGUSR1: log level changed', 'trace', 'error'],
    ],
  );
});

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR1'] as const;
type Listeners = Map<NodeJS.Signals, readonly NodeJS.SignalsListener[]>;

function listenersNow(): Listeners {
  return new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
}

// Each test's instance leaves the process as it found it, so the next one hears each signal once.
function removeListenersAddedSince(before: Listeners): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.includes(listener)) process.removeListener(signal, listener);
  }
}
