import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PasswordJob } from './password-worker.js';

/** Every worker is busy and the job's queue is full: the caller answers 503 (HTTP) or 429 (agents) and is retried later. */
export class PasswordsBusy extends Error {
  readonly retryAfterS = 1;
  constructor() {
    super('password checks are busy: try again shortly');
  }
}

/** The connection that asked went away before its turn: no password work is done for it. */
export class ConnectionGone extends Error {
  constructor() {
    super('the connection closed before its password check');
  }
}

interface Queued {
  readonly job: PasswordJob;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (result: string | boolean) => void;
  readonly reject: (error: Error) => void;
}

// One core is left to the event loop; a second worker only where there are cores to spare.
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
// Enough for a burst of honest logins; past it the caller is told to come back instead of waiting behind an attack.
const MAX_QUEUED = 64;
// A worker is a second V8 heap (~12 MB resident): one idle this long exits, and the next login starts one again.
const IDLE_EXIT_MS = 5_000;

/** A few worker threads doing password hashes and checks, started on first use, with a bounded queue. */
export class PasswordPool {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Queued>();
  private readonly queue: Queued[] = [];
  private readonly first: Queued[] = [];
  private readonly live = new Set<Worker>();
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();

  constructor(
    private readonly size = POOL_SIZE,
    private readonly maxQueued = MAX_QUEUED,
    private readonly idleExitMs = IDLE_EXIT_MS,
  ) {}

  /**
   * The job's result; rejects PasswordsBusy when its lane's queue is full, ConnectionGone when `signal` aborts first.
   * A `priority` job (a login from the name's own side) has a lane of its own, served first: a flood of guesses fills
   * only the other.
   */
  run(job: PasswordJob, signal?: AbortSignal, priority = false): Promise<string | boolean> {
    const lane = priority ? this.first : this.queue;
    if (signal?.aborted) return Promise.reject(new ConnectionGone());
    if (lane.length >= this.maxQueued) return Promise.reject(new PasswordsBusy());
    return new Promise((resolve, reject) => {
      // A queued job whose connection closes leaves the queue at once: it holds no place an honest login needs.
      const drop = () => {
        const at = lane.indexOf(entry);
        if (at < 0) return;
        lane.splice(at, 1);
        reject(new ConnectionGone());
      };
      const settled = () => signal?.removeEventListener('abort', drop);
      const entry: Queued = { job, signal, resolve: (r) => (settled(), resolve(r)), reject: (e) => (settled(), reject(e)) };
      signal?.addEventListener('abort', drop, { once: true });
      lane.push(entry);
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker now. */
  queued(): number {
    return this.first.length + this.queue.length;
  }

  /** Worker threads alive now (idle ones exit after a while). */
  workers(): number {
    return this.live.size;
  }

  private dispatch(): void {
    while (this.queued() > 0) {
      const worker = this.idle.pop() ?? (this.live.size < this.size ? this.spawn() : null);
      if (!worker) return;
      clearTimeout(this.idleTimers.get(worker));
      this.idleTimers.delete(worker);
      const next = (this.first.length > 0 ? this.first : this.queue).shift()!;
      if (next.signal?.aborted) {
        this.rest(worker);
        next.reject(new ConnectionGone());
        continue;
      }
      this.running.set(worker, next);
      worker.ref();
      worker.postMessage(next.job);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./password-worker.js', import.meta.url));
    this.live.add(worker);
    worker.unref();
    worker.on('message', (message: { result?: string | boolean; error?: string }) => {
      const job = this.running.get(worker);
      this.running.delete(worker);
      // Idle workers do not keep a finished command (or a stopping daemon) alive.
      worker.unref();
      this.rest(worker);
      if (message.error !== undefined) job?.reject(new Error(message.error));
      else job?.resolve(message.result!);
      this.dispatch();
    });
    worker.on('error', (error) => this.lose(worker, error));
    worker.on('exit', () => this.lose(worker, new Error('password worker exited')));
    return worker;
  }

  /** Back among the idle, until it is taken or its idle time runs out. */
  private rest(worker: Worker): void {
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.lose(worker, new Error('password worker retired'));
      void worker.terminate();
    }, this.idleExitMs);
    this.idleTimers.set(worker, timer.unref());
  }

  private lose(worker: Worker, error: Error): void {
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    if (!this.live.delete(worker)) return;
    const job = this.running.get(worker);
    this.running.delete(worker);
    const idleAt = this.idle.indexOf(worker);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    job?.reject(error);
    this.dispatch();
  }
}

let shared: PasswordPool | null = null;
/** The process's one password pool. */
export const passwordPool = (): PasswordPool => (shared ??= new PasswordPool());

type Closing = { readonly destroyed: boolean; once(event: string, listener: () => void): unknown; off(event: string, listener: () => void): unknown };
/** An AbortSignal that fires on the first of `events` of `socket`, and a release to call when the check is over (keep-alive sockets). */
export function closedSignal(socket: Closing, events: readonly string[] = ['close']): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (socket.destroyed) controller.abort();
  const abort = () => controller.abort();
  for (const event of events) socket.once(event, abort);
  return { signal: controller.signal, release: () => events.forEach((event) => socket.off(event, abort)) };
}
