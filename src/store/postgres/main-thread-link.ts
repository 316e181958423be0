// A store connection run on the main thread: its statements are only ever awaited (a unit's round trips, the reader's
// reads), so the answer is read off the socket where it is wanted, with no thread hop or copy between. Its socket
// holds the process only while a statement is in flight, as the worker thread's connection never held it.
import type { Socket } from 'node:net';
import type pg from 'pg';
import { lateBy, type Link, type LinkOf, type NoAnswer } from './connection-link.js';
import { StatementRunner, type RunnerConfig, type SyncReply, type SyncRequest } from './statement-runner.js';

const socketOf = (client: pg.Client): Socket | undefined => (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;

export const mainThreadLink: LinkOf = (config) => new MainThreadLink(config);

export class MainThreadLink implements Link {
  readonly canBlock = false;
  private readonly runner: StatementRunner;
  private isDown = false;
  private socket: Socket | undefined;
  private inFlight = 0;
  /** Answers that came before anyone awaited them, and the awaiting callers, by statement id. */
  private readonly early = new Map<number, SyncReply>();
  private readonly waiters = new Map<number, (reply: SyncReply | NoAnswer) => void>();
  /** Statements whose caller stopped waiting: their late answers are dropped. */
  private readonly abandoned = new Set<number>();
  private terminated = false;

  constructor(config: RunnerConfig) {
    this.runner = new StatementRunner(
      config,
      (down) => (this.isDown = down),
      (client) => {
        // The socket of a connection replaced while statements were in flight no longer holds the process.
        this.socket?.unref();
        this.socket = socketOf(client);
        if (this.inFlight === 0) this.socket?.unref();
      },
    );
  }

  get down(): boolean {
    return this.isDown;
  }

  post(request: SyncRequest): void {
    if (this.inFlight++ === 0) this.socket?.ref();
    void this.runner.submit(request).then((reply) => {
      if (--this.inFlight === 0) this.socket?.unref();
      const waiter = this.waiters.get(reply.id);
      this.waiters.delete(reply.id);
      if (waiter) waiter(reply);
      else if (!this.abandoned.delete(reply.id)) this.early.set(reply.id, reply);
    });
  }

  blockFor(): NoAnswer {
    return { lost: 'a statement cannot block on a connection the main thread runs', replace: false };
  }

  answer(id: number, waitMs: number): Promise<SyncReply | NoAnswer> {
    const early = this.early.get(id);
    if (early) {
      this.early.delete(id);
      return Promise.resolve(early);
    }
    if (this.terminated) return Promise.resolve({ lost: 'the connection was replaced while a statement waited', replace: false });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        this.abandoned.add(id);
        resolve({ lost: lateBy(waitMs), replace: true });
      }, waitMs);
      timer.unref();
      this.waiters.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  waitUp(): boolean {
    return false;
  }

  terminate(graceful = false): void {
    this.terminated = true;
    this.runner.destroy(graceful);
    for (const [id, waiter] of this.waiters) {
      this.waiters.delete(id);
      waiter({ lost: 'the connection was replaced while a statement waited', replace: false });
    }
  }
}
