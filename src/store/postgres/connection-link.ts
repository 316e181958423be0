// How a store connection's statements reach its StatementRunner and its answers come back: a worker thread the caller
// can block on (WorkerLink), or the runner on the main thread, answered only asynchronously (main-thread-link.ts).
import { Worker, MessageChannel } from 'node:worker_threads';
import { ReplyPort, flagMoved, waitForFlag } from './reply-port.js';
import type { RunnerConfig, SyncReply, SyncRequest } from './statement-runner.js';

/** No answer: why, and whether the connection must be replaced (its statement may hang on a dead network). */
export interface NoAnswer {
  readonly lost: string;
  readonly replace: boolean;
}

export interface Link {
  /** Whether a caller may block the thread for an answer. */
  readonly canBlock: boolean;
  /** Whether the connection is lost while it connects again in the background. */
  readonly down: boolean;
  post(request: SyncRequest): void;
  /** Blocks until `id` is answered, for `waitMs` at most or until `giveUp` gives a reason. */
  blockFor(id: number, waitMs: number, giveUp: ((waitedMs: number) => string | null) | null): SyncReply | NoAnswer;
  /** Awaits the answer to `id`, for `waitMs` at most. */
  answer(id: number, waitMs: number): Promise<SyncReply | NoAnswer>;
  /** Blocks up to `ms` for a lost connection to come back: whether it has. */
  waitUp(ms: number): boolean;
  /** Ends it: at once, whatever it was doing, or (`graceful`, on close) telling the server first. */
  terminate(graceful?: boolean): void;
}

/** Makes a connection's link. */
export type LinkOf = (config: RunnerConfig) => Link;
export const workerLink: LinkOf = (config) => new WorkerLink(config);

/** Why an answer is given up on after `waitMs`. */
export const lateBy = (waitMs: number): string => `no answer within ${waitMs / 1000} s`;
export const isNoAnswer = (reply: SyncReply | NoAnswer): reply is NoAnswer => 'lost' in reply;

/** The runner in a worker thread: a blocked caller is woken through a shared flag, an awaiting one by Atomics.waitAsync. */
export class WorkerLink implements Link {
  readonly canBlock = true;
  /** The id of the worker's latest answer, then whether it is disconnected. */
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private readonly replies: ReplyPort;
  private terminated = false;

  constructor(config: RunnerConfig) {
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(new URL('./sync-worker.js', import.meta.url), {
      workerData: { ...config, flag: this.flag.buffer, port: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    this.replies = new ReplyPort(port1);
  }

  get down(): boolean {
    return Atomics.load(this.flag, 1) === 1;
  }

  post(request: SyncRequest): void {
    this.replies.port.postMessage(request);
  }

  blockFor(id: number, waitMs: number, giveUp: ((waitedMs: number) => string | null) | null): SyncReply | NoAnswer {
    const givenUp = waitForFlag(this.flag, id, waitMs, giveUp);
    if (givenUp !== null) return { lost: givenUp, replace: true };
    return this.replies.take(id) ?? { lost: `the answer to statement ${id} was not on the port`, replace: false };
  }

  async answer(id: number, waitMs: number): Promise<SyncReply | NoAnswer> {
    const deadline = Date.now() + waitMs;
    this.replies.awaited.add(id);
    try {
      for (;;) {
        const [seen, reply] = [Atomics.load(this.flag, 0), this.replies.take(id)];
        if (reply) return reply;
        if (this.terminated) return { lost: 'the connection was replaced while a statement waited', replace: false };
        const left = deadline - Date.now();
        if (left <= 0) return { lost: lateBy(waitMs), replace: true };
        await flagMoved(this.flag, seen, left);
      }
    } finally {
      this.replies.awaited.delete(id);
    }
  }

  waitUp(ms: number): boolean {
    Atomics.wait(this.flag, 1, 1, ms);
    return Atomics.load(this.flag, 1) === 0;
  }

  terminate(): void {
    this.terminated = true;
    void this.worker.terminate();
    // A caller awaiting an answer looks again, and finds the link gone.
    Atomics.notify(this.flag, 0);
  }
}
