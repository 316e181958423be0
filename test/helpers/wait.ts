import { setTimeout as sleep } from 'node:timers/promises';

/** Polls until `ok` holds or `ms` passes; returns the last value either way. */
export async function eventually<T>(fn: () => Promise<T>, ok: (value: T) => boolean, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (ok(value) || Date.now() > deadline) return value;
    await sleep(50);
  }
}

/** Polls a synchronous condition until it holds or `ms` passes; says whether it held. */
export function until(ok: () => boolean, ms: number): Promise<boolean> {
  const poll = async () => ok();
  return eventually(poll, Boolean, ms);
}
