// A real, throwaway Redis for tests: a free 127.0.0.1 port, a private dir, no persistence, killed after.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../helpers/net.js';

const SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILLs it (nothing is saved). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function redisMissing(): string | null {
  return SERVER ? null : "redis-server not installed; install Debian's redis-server";
}

/** A started server, or null after `t.skip` when it is not installed (an error under CI=true). */
export async function redisFor(t: { skip(message: string): void; after(fn: () => void | Promise<void>): void }): Promise<RedisServer | null> {
  const missing = redisMissing();
  if (missing) {
    if (process.env.CI === 'true') throw new Error(`Redis is required under CI: ${missing}`);
    t.skip(missing);
    return null;
  }
  const server = await startRedis();
  t.after(() => server.stop());
  return server;
}

function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => (socket.destroy(), resolve(data.toString().startsWith('+PONG'))));
    socket.on('error', () => resolve(false));
  });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cb-redis-'));
  const port = await freePort({ belowEphemeral: true }); // the same port after a restart: out of listen(0)'s way
  let proc: ChildProcess | null = null;
  const start = async () => {
    proc = spawn(SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (await pong(port)) return;
      await sleep(50);
    }
    throw new Error(`redis-server did not start on ${port}`);
  };
  const kill = async () => {
    const running = proc;
    proc = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  let stopped = false;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    async stop() {
      if (stopped) return;
      stopped = true;
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
