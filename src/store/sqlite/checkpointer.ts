import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

// A commit that reaches SQLite's automatic checkpoint copies the WAL back and fsyncs on the intake's thread:
// at 800 results a group that is most of the commit (test/bench socket-intake). The daemon checkpoints in a worker;
// the automatic checkpoint stays as a backstop at a larger size, should the worker fall behind.
const BACKSTOP_PAGES = 16_384;
const INTERVAL_MS = 250;

export class Checkpointer {
  private readonly worker: Worker;

  /** `onCheckpoint` hears how long each checkpoint (its copy and fsync) took, in milliseconds. */
  constructor(db: Database.Database, onCheckpoint: (ms: number) => void) {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { path: db.name, intervalMs: INTERVAL_MS } });
    this.worker.on('message', (ms: number) => onCheckpoint(ms));
    this.worker.unref();
  }

  /** Stops the worker; its connection closes with it. */
  stop(): void {
    this.worker.postMessage('stop');
  }
}
