import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SpawnOptions, SpawnResult } from './spawn.js';
import { withoutCredentials } from '../config/index.js';

interface Reply {
  readonly id: number;
  readonly result?: SpawnResult;
  readonly stopped?: boolean;
}

const HOST = fileURLToPath(new URL('./spawner-host.js', import.meta.url));

const NOT_RUN: SpawnResult = { status: 3, output: 'Unexpected error: not run, checkbridge is stopping', timedOut: false, signal: null, durationMs: 0 };

/**
 * Runs commands in a small helper process (spawner-host). The daemon's event loop only pays for a message;
 * if the helper dies, the commands it was running report status 3 and the next command starts a new helper.
 * Once close() began no helper starts again: later commands report status 3 without running.
 */
export class RemoteSpawner {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private closing: Promise<void> | null = null;

  private host(): ChildProcess {
    if (this.child && this.child.connected) return this.child;
    // Started without the daemon's credentials: a command reads its parent's /proc/PID/environ.
    const child = fork(HOST, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], env: withoutCredentials(process.env) });
    child.on('message', (reply: Reply) => {
      const done = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      this.holdOpen();
      done?.(reply);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      for (const [id, done] of this.waiting) {
        this.waiting.delete(id);
        done({
          id,
          result: { status: 3, output: `Unexpected error: the spawner process exited (${signal ?? code})`, timedOut: false, signal: null, durationMs: 0 },
          stopped: true,
        });
      }
    });
    this.child = child;
    return child;
  }

  // The helper keeps the daemon alive only while a command is running, like a child process would.
  private holdOpen(): void {
    const child = this.child;
    if (!child) return;
    const channel = (child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
    if (this.waiting.size > 0) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }

  private request(message: Record<string, unknown>): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.host().send({ ...message, id });
      this.holdOpen();
    });
  }

  readonly spawn = async (command: string, options: SpawnOptions = {}): Promise<SpawnResult> => {
    if (this.closing) return NOT_RUN;
    const reply = await this.request({ command, options });
    return reply.result!;
  };

  /** Stops every running command's process group, then the helper; the helper is gone when this resolves. */
  close(graceMs = 3000): Promise<void> {
    this.closing ??= this.stopHelper(graceMs);
    return this.closing;
  }

  private async stopHelper(graceMs: number): Promise<void> {
    const child = this.child;
    if (!child?.connected) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await this.request({ stopAll: graceMs });
    if (child.connected) child.disconnect();
    child.ref(); // waited for on purpose: the daemon must not exit before its helper has
    await exited;
  }
}
