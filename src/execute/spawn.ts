import { execa } from 'execa';
import { constants } from 'node:os';

/** What running a command gave: a flat record, as execa's results are. */
export interface SpawnResult {
  readonly status: number;
  readonly output: string;
  readonly timedOut: boolean;
  readonly signal: string | null;
  readonly durationMs: number;
}

export interface SpawnOptions {
  /** Seconds; none means no timeout (legacy). */
  readonly timeout?: number | undefined;
  /** Written to stdin, which is then closed; without it stdin is not a pipe. */
  readonly stdin?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly cwd?: string | undefined;
}

export const TIMED_OUT_OUTPUT = 'Execution timed out';
const KILL_GRACE_MS = 3000;

// Process groups still running, so a stopping daemon can end them all.
const liveGroups = new Set<number>();

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): string | null {
  try {
    process.kill(-pid, signal);
    return null;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code === 'ESRCH' ? null : e.message;
  }
}

/** TERM the whole group, then KILL it if anything is left after 3 s (legacy childprocess stop). */
export async function stopGroup(pid: number, graceMs = KILL_GRACE_MS): Promise<string | null> {
  const failure = signalGroup(pid, 'SIGTERM');
  if (failure) return failure;
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return groupAlive(pid) ? signalGroup(pid, 'SIGKILL') : null;
}

export async function stopAllGroups(graceMs = KILL_GRACE_MS): Promise<void> {
  await Promise.all([...liveGroups].map((pid) => stopGroup(pid, graceMs)));
}

/**
 * `sh -c COMMAND` as the leader of its own process group, stdout and stderr merged in write order
 * (one descriptor: the shell redirects 2>&1 before the command runs).
 */
export async function spawnCommand(command: string, options: SpawnOptions = {}): Promise<SpawnResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let timedOut = false;
  let stopFailure: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let pid: number | undefined;
  try {
    const child = execa('sh', ['-c', `exec 2>&1; ${command}`], {
      detached: true,
      reject: false,
      stripFinalNewline: false,
      encoding: 'utf8',
      all: true,
      env: options.env,
      extendEnv: true,
      cwd: options.cwd,
      ...(options.stdin !== undefined ? { input: options.stdin } : { stdin: 'ignore' as const }),
    });
    pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    const timeout = options.timeout;
    if (pid !== undefined && typeof timeout === 'number' && timeout > 0) {
      const group = pid;
      timer = setTimeout(() => {
        timedOut = true;
        void stopGroup(group).then((failure) => (stopFailure = failure));
      }, timeout * 1000);
    }
    const result = await child;
    if (timer) clearTimeout(timer);
    if (timedOut) {
      const output = stopFailure ? `${TIMED_OUT_OUTPUT} - Unable to TERM/KILL the process: #${pid}, ${stopFailure}` : TIMED_OUT_OUTPUT;
      return { status: 2, output, timedOut: true, signal: result.signal ?? null, durationMs: elapsed() };
    }
    if (result.exitCode === undefined && !result.signal) {
      return { status: 3, output: `Unexpected error: ${result.originalMessage || result.shortMessage}`, timedOut: false, signal: null, durationMs: elapsed() };
    }
    const signal = result.signal ?? null;
    // Legacy: a child killed by a signal reports the signal number as its status.
    const status = result.exitCode ?? (signal ? constants.signals[signal as keyof typeof constants.signals] ?? 3 : 3);
    return { status, output: String(result.all ?? ''), timedOut: false, signal, durationMs: elapsed() };
  } catch (error) {
    if (timer) clearTimeout(timer);
    return { status: 3, output: `Unexpected error: ${(error as Error).message}`, timedOut: false, signal: null, durationMs: elapsed() };
  } finally {
    if (pid !== undefined) liveGroups.delete(pid);
  }
}
