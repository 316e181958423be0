// The worker's answers, matched to their statements by id: a caller waiting synchronously and one waiting
// asynchronously may both be reading the same port.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { SyncReply } from './statement-runner.js';

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

// Node 20 has it; the compiler's library for this target does not declare it yet.
const waitAsync = (Atomics as unknown as { waitAsync: (a: Int32Array, i: number, v: number, ms: number) => { async: boolean; value: unknown } }).waitAsync;

/** Resolves once slot 0 of `flag` no longer holds `seen` (a reply was posted), or after `ms`; the thread free meanwhile. */
export async function flagMoved(flag: Int32Array, seen: number, ms: number): Promise<void> {
  const waiting = waitAsync(flag, 0, seen, ms);
  if (!waiting.async) return;
  // An async wait holds no handle: the timer keeps the process alive until the answer comes.
  // (longer than the wait: were it to fire first, nothing else might be left to keep the process alive for the wait's end)
  const alive = setTimeout(() => undefined, ms + 1000);
  await (waiting.value as Promise<unknown>).finally(() => clearTimeout(alive));
}

// While a caller may give up early, it looks up this often.
const SLICE_MS = 50;

/**
 * Blocks until slot 0 of `flag` holds `id` (its reply was posted): null then, or why it was given up (after `waitMs`, or
 * when `giveUp`, asked between slices of the wait, gives a reason).
 */
export function waitForFlag(flag: Int32Array, id: number, waitMs: number, giveUp: ((waitedMs: number) => string | null) | null): string | null {
  const started = Date.now();
  for (;;) {
    const seen = Atomics.load(flag, 0);
    if (seen === id) return null;
    const waited = Date.now() - started;
    if (waited >= waitMs) return `no answer within ${waitMs / 1000} s`;
    const reason = waited > 0 ? giveUp?.(waited) : null;
    if (reason) return reason;
    Atomics.wait(flag, 0, seen, giveUp ? Math.min(SLICE_MS, waitMs - waited) : waitMs - waited);
  }
}
