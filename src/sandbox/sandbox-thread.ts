// The daemon's side of one sandbox thread: a synchronous call that never waits past its deadline.
import { Worker, MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { cpuClock } from './thread-cpu.js';
import { REQUEST, REPLY, READY, SLOTS, STARTED, START_CPU, TASK, type Limits, type Reply } from './protocol.js';

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
    this.port.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.once('message', (message: { ready?: boolean; failed?: string }) => (message.ready ? resolve() : reject(new Error(`the expression sandbox did not start: ${message.failed}`))));
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`the expression sandbox exited (${code}) before it started`)));
    });
    this.ready.catch(() => undefined);
    this.worker.on('error', () => (this.alive = false));
    this.worker.on('exit', () => (this.alive = false));
  }

  /** Loaded and not stopped: read from the shared buffer, so it is true without waiting for the event loop. */
  get usable(): boolean {
    return this.alive && Atomics.load(this.control, READY) === 1;
  }

  /**
   * Waits (Atomics.wait, not the event loop: the thread loads on its own) until QuickJS is loaded, at most `ms`.
   * Used only when the active thread was just retired, so that sound expressions never fail for want of a thread.
   */
  awaitReady(ms: number): boolean {
    const until = performance.now() + ms;
    while (this.alive && Atomics.load(this.control, READY) === 0) {
      const left = until - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.control, READY, 0, Math.min(left, WAIT_SLICE_MS));
    }
    return this.usable;
  }

  /**
   * One evaluation. The daemon's thread waits (Atomics.wait) for the reply. Past the budget it looks at the sandbox
   * thread's CPU time: the budget spent and a margin more (QuickJS did not stop it: a built-in that never checks for
   * interrupts), or the wall-clock cap passed, and it gives up: null, and the caller stops this thread.
   */
  call(expression: string, input: string): Reply | null {
    const seq = ++this.seq;
    this.port.postMessage({ seq, expression, input });
    Atomics.store(this.control, REQUEST, seq);
    Atomics.notify(this.control, REQUEST);
    const started = performance.now();
    for (;;) {
      const answered = Atomics.load(this.control, REPLY);
      if (answered === seq) break;
      const waited = performance.now() - started;
      if (waited >= this.limits.hardCapMs) return null;
      if (waited >= this.limits.budgetMs && this.overBudget(seq)) return null;
      Atomics.wait(this.control, REPLY, answered, WAIT_SLICE_MS);
    }
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (!received) return { seq, retire: true, error: { kind: 'error', message: 'sandbox failure: no reply' } };
      const reply = received.message as Reply;
      if (reply.seq === seq) return reply;
    }
  }

  // Whether this request's evaluation has spent its budget and the margin in the thread's CPU time (not yet started:
  // the thread is still readying a runtime, and only the wall-clock cap applies).
  private overBudget(seq: number): boolean {
    // The thread writes START_CPU before STARTED: seeing our number first, the CPU time read after is ours.
    if (Atomics.load(this.control, STARTED) !== seq) return false;
    const startCpu = Atomics.load(this.control, START_CPU);
    this.threadCpuMs ??= cpuClock(Atomics.load(this.control, TASK) || null);
    return this.threadCpuMs() - startCpu >= this.limits.budgetMs + STOP_MARGIN_MS;
  }

  stop(): void {
    this.alive = false;
    void this.worker.terminate();
  }
}
