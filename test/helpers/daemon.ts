import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './paths.js';

export interface Daemon {
  readonly proc: ChildProcess;
  readonly logs: Record<string, unknown>[];
  /** Resolves with the first log line (new or already seen) matching, or rejects after `ms`. */
  waitFor(match: (line: Record<string, unknown>) => boolean, ms?: number, after?: number): Promise<Record<string, unknown>>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

// Daemons still running when a test file's process exits (a test failed before its cleanup): never left behind.
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((proc) => proc.kill('SIGKILL')));

/** Starts the built binary as a user would and collects its JSON log lines from stderr. */
export function startDaemon(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; bin?: string; nodeArgs?: string[]; wrapper?: readonly string[] } = {},
): Daemon {
  // A wrapper that execs its command (`ip netns exec NS`) keeps the pid: signals and /proc reach the daemon itself.
  const command = [...(options.wrapper ?? []), process.execPath, ...(options.nodeArgs ?? []), options.bin ?? BIN, ...args];
  const proc = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  proc.stderr!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ msg: line, raw: true });
      }
    }
    waiters.splice(0).forEach((w) => w());
  });
  running.add(proc);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => (running.delete(proc), resolve(code))));
  return {
    proc,
    logs,
    waitFor(match, ms = 10_000, after = 0) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for a log line; last lines: ${JSON.stringify(logs.slice(-5))}`)), ms);
        const check = () => {
          const found = logs.slice(after).find(match);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else {
            waiters.push(check);
          }
        };
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}
