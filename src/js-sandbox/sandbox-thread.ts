// The daemon's side of one sandbox thread: an asynchronous call that a timer ends at its deadline.
import { Worker, MessageChannel, type MessagePort } from 'node:worker_threads';
import { cpuClock } from './thread-cpu.js';
import { REQUEST, READ, READY, SLOTS, STARTED, START_CPU, TASK, type Limits, type Reply } from './protocol.js';

// How long each wait sleeps before it looks at the clocks again. The margin past the budget the thread gets to
// stop by itself: two ticks of its CPU clock (10 ms each).
const WAIT_SLICE_MS = 5;
const STOP_MARGIN_MS = 20;

export class SandboxThread {
  private readonly control = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private seq = 0;
  private alive = true;
  private threadCpuMs: (() => number) | null = null;
  private pending: { readonly seq: number; readonly settle: (reply: Reply | null) => void } | null = null;
  /** Resolves once QuickJS is loaded in the thread; rejects when it cannot be. */
  readonly ready: Promise<void>;

  constructor(private readonly limits: Limits) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // No environment and no Node options: nothing in the thread needs the daemon's variables or flags (an inspector,
    // a loader). Its heap is capped apart from the daemon's.
    this.worker = new Worker(new URL('./worker.js', import.meta.url), {
      workerData: { control: this.control.buffer, port: port2, limits },
      transferList: [port2],
      env: {},
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 8 },
    });
    // The thread never keeps the daemon from exiting.
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.once('message', (message: { ready?: boolean; failed?: string }) =>
        message.ready ? resolve() : reject(new Error(`the expression sandbox did not start: ${message.failed}`)),
      );
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`the expression sandbox exited (${code}) before it started`)));
    });
    this.ready.catch(() => undefined);
    this.port.on('message', (reply: Reply) => this.receive(reply));
    // After the listener (which refs the port): an evaluation's deadline timer is what keeps the process up meanwhile.
    this.port.unref();
    this.worker.on('error', () => this.died());
    this.worker.on('exit', () => this.died());
  }

  /** Loaded and not stopped: read from the shared buffer, so it is true without waiting for the event loop. */
  get usable(): boolean {
    return this.alive && Atomics.load(this.control, READY) === 1;
  }

  /** Resolves once QuickJS is loaded (true) or at most `ms` later (false): the daemon's thread never blocks on it. */
  async awaitReady(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([this.ready.catch(() => undefined), late]);
    clearTimeout(timer);
    return this.usable;
  }

  /**
   * One evaluation, answered through the port. Past the budget a timer looks at the sandbox thread's CPU time: the
   * budget spent and a margin more (QuickJS did not stop it: a built-in that never checks for interrupts), or the
   * wall-clock cap passed, and it gives up: null, and the caller stops this thread. One call at a time. Reading the
   * input has its own wall-clock cap: the caps of the expression run from when it was first seen read.
   */
  call(expression: string, input: string): Promise<Reply | null> {
    const seq = ++this.seq;
    const posted = performance.now();
    let started = Infinity;
    return new Promise<Reply | null>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (reply: Reply | null) => {
        clearTimeout(timer);
        this.pending = null;
        resolve(reply);
      };
      this.pending = { seq, settle };
      const watch = () => {
        const now = performance.now();
        if (started === Infinity && this.expressionStarted(seq)) started = now;
        const waited = Math.max(0, now - started);
        if (
          now - posted >= this.limits.readCapMs + this.limits.hardCapMs ||
          waited >= this.limits.hardCapMs ||
          (waited >= this.limits.budgetMs && this.overBudget(seq))
        )
          return settle(null);
        timer = setTimeout(watch, waited < this.limits.budgetMs ? this.limits.budgetMs - waited : WAIT_SLICE_MS);
      };
      // The thread may die mid-evaluation: the caller hears of it at once rather than at the cap.
      if (!this.alive) return settle({ seq, retire: true, error: { kind: 'error', message: 'sandbox failure: the thread stopped' } });
      this.port.postMessage({ seq, expression, input });
      Atomics.store(this.control, REQUEST, seq);
      Atomics.notify(this.control, REQUEST);
      timer = setTimeout(watch, this.limits.budgetMs);
    });
  }

  /** Whether request `seq` got past reading its input: a give-up before that is not its expression's doing. */
  expressionStarted(seq = this.seq): boolean {
    return Atomics.load(this.control, READ) === seq;
  }

  private receive(reply: Reply): void {
    if (this.pending?.seq === reply.seq) this.pending.settle(reply);
  }

  // Whether this request's evaluation has spent its budget and the margin in the thread's CPU time (not yet started:
  // the thread is still readying a runtime, and only the wall-clock cap applies).
  private overBudget(seq: number): boolean {
    // The thread writes START_CPU before STARTED and READ: seeing our number first, the CPU time read after is ours.
    if (Atomics.load(this.control, STARTED) !== seq || !this.expressionStarted(seq)) return false;
    const startCpu = Atomics.load(this.control, START_CPU);
    this.threadCpuMs ??= cpuClock(Atomics.load(this.control, TASK) || null);
    return this.threadCpuMs() - startCpu >= this.limits.budgetMs + STOP_MARGIN_MS;
  }

  private died(): void {
    this.alive = false;
    this.pending?.settle({ seq: this.pending.seq, retire: true, error: { kind: 'error', message: 'sandbox failure: the thread stopped' } });
  }

  stop(): void {
    this.alive = false;
    void this.worker.terminate();
  }
}
