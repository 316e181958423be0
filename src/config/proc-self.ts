// What /proc/PID/environ and /proc/PID/cmdline show is the memory this process started with, not process.env or
// process.argv: any process of the same user (environ) or any local user (cmdline) reads it there. The kernel
// serves those files from this process's own stack, which it may write through /proc/self/mem (Linux), as
// setproctitle does; so a credential read at start can be blanked where others would read it.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

interface Area {
  readonly start: number;
  readonly end: number;
}

// Fields 48-51 of /proc/self/stat (Linux 3.5 and later): arg_start, arg_end, env_start, env_end.
function areasOfSelf(): { cmdline: Area; environ: Area } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { cmdline: { start: field(48), end: field(49) }, environ: { start: field(50), end: field(51) } };
}

/** The NUL-separated entries of a /proc file with their byte offsets. */
function entriesOf(bytes: Buffer): { entry: Buffer; at: number }[] {
  const out: { entry: Buffer; at: number }[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf(0, at);
    const stop = end < 0 ? bytes.length : end;
    out.push({ entry: bytes.subarray(at, stop), at });
    at = stop + 1;
  }
  return out;
}

/**
 * Overwrites with `x` the byte ranges `pick` chooses in each entry of /proc/self/FILE; returns how many entries it
 * blanked, or throws with the reason it could not.
 */
function blankEntries(file: 'environ' | 'cmdline', pick: (entry: Buffer) => number | null): number {
  const area = areasOfSelf()[file];
  if (!Number.isSafeInteger(area.start) || !Number.isSafeInteger(area.end) || area.end <= area.start) throw new Error(`/proc/self/stat gives no ${file} area`);
  const bytes = readFileSync(`/proc/self/${file}`);
  // Anything but the area as it was at exec (a changed process title) is not ours to write over.
  if (bytes.length !== area.end - area.start) throw new Error(`/proc/self/${file} is not the ${area.end - area.start} bytes of its area`);
  const patches = entriesOf(bytes).flatMap(({ entry, at }) => {
    const from = pick(entry);
    return from === null || from >= entry.length ? [] : [{ position: area.start + at + from, length: entry.length - from }];
  });
  if (patches.length === 0) return 0;
  const fd = openSync('/proc/self/mem', 'r+');
  try {
    for (const { position, length } of patches) writeSync(fd, Buffer.alloc(length, 'x'), 0, length, position);
  } finally {
    closeSync(fd);
  }
  return patches.length;
}

/** Blanks the values of the variables `named` in this process's start environment (call once they left process.env). */
export function blankStartEnvironment(named: (name: string) => boolean): number {
  return blankEntries('environ', (entry) => {
    const equals = entry.indexOf('=');
    return equals > 0 && named(entry.subarray(0, equals).toString('utf8')) ? equals + 1 : null;
  });
}

/** Blanks each argument of this process's command line that is one of `values`, alone or as `--flag=VALUE`. */
export function blankArguments(values: readonly string[]): number {
  const secrets = values.filter((v) => v.length > 0).map((v) => Buffer.from(v, 'utf8'));
  if (secrets.length === 0) return 0;
  return blankEntries('cmdline', (entry) => {
    for (const secret of secrets) {
      if (entry.equals(secret)) return 0;
      const from = entry.length - secret.length;
      if (entry[0] === 0x2d && from > 0 && entry[from - 1] === 0x3d && entry.subarray(from).equals(secret)) return from;
    }
    return null;
  });
}
