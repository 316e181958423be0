// Whether PostgreSQL answers at all, known without the main thread: a worker probes on a connection of its own and
// writes each answer's time to shared memory, which a statement blocking the thread reads while it waits.
import { Worker } from 'node:worker_threads';
import type { PgEnvironment } from './connection.js';

/** A probe unanswered this long: PostgreSQL counts as out of reach (a healthy one answers `SELECT 1` well within it). */
export const SILENT_MS = 500;

export class ReachProbe {
  private readonly times = new BigInt64Array(new SharedArrayBuffer(16));
  private readonly worker: Worker;

  constructor(dsn: string, env: PgEnvironment) {
    this.worker = new Worker(new URL('./reach-probe-worker.js', import.meta.url), { workerData: { dsn, env, times: this.times.buffer } });
    this.worker.unref();
  }

  /** Why PostgreSQL counts as out of reach now (a probe unanswered over SILENT_MS), or null. */
  get silent(): string | null {
    const sent = Number(Atomics.load(this.times, 0));
    const waited = sent === 0 ? 0 : Date.now() - sent;
    return waited > SILENT_MS ? `PostgreSQL has not answered a probe for ${(waited / 1000).toFixed(1)} s` : null;
  }

  close(): void {
    void this.worker.terminate();
  }
}
