// CPU time of one thread (Linux /proc), so that an expression's budget counts its own thread's work: neither the
// time a busy machine kept it waiting nor what other threads of the daemon (a spare sandbox loading) spent.
import { closeSync, openSync, readSync, readlinkSync } from 'node:fs';

// Linux reports a task's utime and stime in clock ticks of 1/100 s (USER_HZ).
const TICK_MS = 10;
const buffer = Buffer.alloc(1024);

/** The calling thread's kernel task id, or null where /proc does not say. */
export function currentTaskId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/** A reader of one task's CPU time in ms (user and system); the process's when the task cannot be read. */
export function cpuClock(taskId: number | null): () => number {
  const path = taskId === null ? null : `/proc/self/task/${taskId}/stat`;
  const processMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  if (path === null || readTaskMs(path) === null) return processMs;
  return () => readTaskMs(path) ?? processMs();
}

function readTaskMs(path: string): number | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const text = buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th, stime the 13th.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * TICK_MS : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
