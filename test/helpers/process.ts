import { readFileSync } from 'node:fs';

/** Whether a process still runs; a zombie (reaped late by a container's init) counts as gone. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
