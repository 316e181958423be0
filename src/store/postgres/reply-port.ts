// The worker's answers, matched to their statements by id: a caller waiting synchronously and one waiting
// asynchronously may both be reading the same port.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { SyncReply } from './sync-worker.js';

export class ReplyPort {
  /** Replies awaited asynchronously, and those of them already taken off the port by another waiter. */
  readonly awaited = new Set<number>();
  private readonly early = new Map<number, SyncReply>();

  constructor(readonly port: MessagePort) {}

  /** Reply `id` if it has arrived; another awaited one met on the way is kept for its waiter, a stale one dropped. */
  take(id: number): SyncReply | undefined {
    const kept = this.early.get(id);
    if (kept) {
      this.early.delete(id);
      return kept;
    }
    for (;;) {
      const reply = receiveMessageOnPort(this.port)?.message as SyncReply | undefined;
      if (!reply || reply.id === id) return reply;
      if (this.awaited.has(reply.id)) this.early.set(reply.id, reply);
    }
  }
}
