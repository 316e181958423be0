import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.js';

/** A real logger whose JSON lines are kept for assertions. */
export function capturedLogger(): { logger: Logger; lines: Record<string, unknown>[]; messages: () => string[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('debug', stream);
  return { logger, lines, messages: () => lines.map((l) => String(l.msg)) };
}
