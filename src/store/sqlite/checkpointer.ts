import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

// A commit that reaches SQLite's automatic checkpoint copies the WAL back and fsyncs on the intake's thread:
// at 800 results a group that is most of the commit (test/bench socket-intake). The daemon checkpoints in a worker;
// the automatic checkpoint stays as a backstop at a larger size, should the worker fall behind.
const BACKSTOP_PAGES = 16_384;
const INTERVAL_MS = 250;

export class Checkpointer {
  private readonly worker: Worker;
  /** The failure last reported: a run of the same one is reported once, and a success ends the run. */
  private failing: string | null = null;

  /** `onCheckpoint` hears how long each checkpoint (its copy and fsync) took, in milliseconds; `onFailure` why one failed. */
  constructor(db: Database.Database, onCheckpoint: (ms: number) => void, onFailure: (message: string) => void = () => undefined) {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { path: db.name, intervalMs: INTERVAL_MS } });
    this.worker.on('message', (message: number | { failed: string }) => {
      if (typeof message === 'number') return ((this.failing = null), onCheckpoint(message));
      if (message.failed !== this.failing) onFailure(message.failed);
      this.failing = message.failed;
    });
    // A thread that died (it could not open the file) leaves the automatic checkpoint in charge; the daemon runs on.
    this.worker.on('error', (error) => onFailure(`the checkpoint thread stopped: ${error.message}`));
    this.worker.unref();
  }

  /** Stops the worker; its connection closes with it. */
  stop(): void {
    this.worker.postMessage('stop');
  }
}
