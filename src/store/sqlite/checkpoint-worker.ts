// The WAL checkpointer's thread: copies committed pages back into the database file (and fsyncs) off the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';

const { path, intervalMs } = workerData as { path: string; intervalMs: number };
const reasonOf = (error: unknown) => `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}`;
// SQLite's own error class reaches the main thread without its message: the thread dies of a plain Error instead.
const db = (() => {
  try {
    return new Database(path);
  } catch (error) {
    throw new Error((error as { code?: string }).code ? reasonOf(error) : (error as Error).message);
  }
})();
db.pragma('busy_timeout = 5000');
// PASSIVE: never waits for, nor blocks, the writer; what it cannot copy now it copies next time.
// Each checkpoint's duration goes to the main thread, which warns of a slow log sync; a failure (a full disk) goes
// there too, and the next turn tries again: the thread never dies of it.
const timer = setInterval(() => {
  const started = performance.now();
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort!.postMessage({ failed: reasonOf(error) });
    return;
  }
  parentPort!.postMessage(performance.now() - started);
}, intervalMs);
parentPort!.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
