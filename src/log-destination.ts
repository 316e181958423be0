import { writeSync } from 'node:fs';

// Past this many bytes waiting for a reader, lines are dropped (and counted) rather than held.
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
const RETRY_MS = 10;
// At exit a reader that never reads is waited for this long, no longer.
const EXIT_WAIT_MS = 5000;

// One exit hook for every destination: they are flushed in creation order.
const open = new Set<LogDestination>();
let hooked = false;

const errno = (error: unknown) => (error as { code?: string }).code;

/**
 * Log lines to a file descriptor: written at once while it takes them (a line is out before the work it reports
 * goes on), held in order when it is full (EAGAIN: a pipe its reader empties slowly, or not at all) and written as it
 * drains. The daemon never waits on its log reader, where a synchronous pino destination sleeps 100 ms per full pipe.
 */
export class LogDestination {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly fd: number) {
    open.add(this);
    if (!hooked) process.on('exit', () => open.forEach((destination) => destination.flushSync()));
    hooked = true;
  }

  write(line: string): boolean {
    if (this.pending.length === 0) {
      const bytes = Buffer.from(line);
      const written = this.tryWrite(bytes);
      if (written === bytes.length) return true;
      this.hold(bytes.subarray(written));
    } else if (this.pendingBytes + line.length > MAX_PENDING_BYTES) {
      this.dropped++;
    } else {
      this.hold(Buffer.from(line));
    }
    this.timer ??= setTimeout(() => this.drain(), RETRY_MS);
    return true;
  }

  /** Everything held, waiting for the reader if it must (at exit: nothing is left unwritten that can be written). */
  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const deadline = Date.now() + EXIT_WAIT_MS;
    while (this.pending.length > 0 && this.drainOnce() && Date.now() < deadline) {
      if (this.pending.length > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }

  private hold(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
  }

  /** Bytes written, 0 when the descriptor is full; a closed reader (EPIPE) takes everything, to nowhere. */
  private tryWrite(bytes: Buffer): number {
    try {
      return writeSync(this.fd, bytes);
    } catch (error) {
      if (errno(error) === 'EAGAIN') return 0;
      if (errno(error) === 'EPIPE') return bytes.length;
      throw error;
    }
  }

  /** Writes what it can of the held lines; false once the descriptor is gone. */
  private drainOnce(): boolean {
    if (this.dropped > 0 && this.pendingBytes < MAX_PENDING_BYTES / 2) {
      this.hold(
        Buffer.from(
          `{"level":40,"time":"${new Date().toISOString()}","name":"checkbridge","dropped":${this.dropped},"msg":"log lines dropped while the log reader was not reading"}\n`,
        ),
      );
      this.dropped = 0;
    }
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    let written: number;
    try {
      written = this.tryWrite(bytes);
    } catch {
      this.pending = [];
      this.pendingBytes = 0;
      return false;
    }
    const rest = bytes.subarray(written);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return true;
  }

  private drain(): void {
    this.timer = null;
    if (this.drainOnce() && this.pending.length > 0) this.timer = setTimeout(() => this.drain(), RETRY_MS);
  }
}
