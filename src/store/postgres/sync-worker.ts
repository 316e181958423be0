// The shared store's PostgreSQL connection thread: a StatementRunner. A waiting caller (SyncPostgres, blocked in
// Atomics.wait) is answered on the port, then woken through the shared flag (the id answered). Once the connection is
// lost, the flag's second slot says so until this thread has connected again on its own.
import { workerData, type MessagePort } from 'node:worker_threads';
import type { PgEnvironment } from './connection.js';
import { StatementRunner, type SyncRequest } from './statement-runner.js';

interface Data {
  readonly dsn: string;
  readonly env: PgEnvironment;
  readonly flag: SharedArrayBuffer;
  readonly port: MessagePort;
  readonly queryTimeoutMs: number;
  readonly searchPath: string;
}

const data = workerData as Data;
const flag = new Int32Array(data.flag);
/** The flag's second slot: 1 while the connection is lost (callers fail at once), 0 once connected again. */
const DOWN = 1;

const runner = new StatementRunner(data, (down) => {
  Atomics.store(flag, DOWN, down ? 1 : 0);
  if (!down) Atomics.notify(flag, DOWN);
});

data.port.on('message', (request: SyncRequest) => {
  void runner.submit(request).then((reply) => {
    data.port.postMessage(reply);
    Atomics.store(flag, 0, request.id);
    Atomics.notify(flag, 0);
    if (request.close) data.port.close();
  });
});
