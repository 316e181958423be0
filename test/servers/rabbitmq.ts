// A real, throwaway RabbitMQ for tests: a private node name, data dir, epmd port and AMQP port on 127.0.0.1, killed after.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { freePort } from '../helpers/net.js';

const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const CTL = '/usr/lib/rabbitmq/bin/rabbitmqctl';

export interface RabbitServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILLs the broker (every queue and unacked message goes with it: nothing is durable). */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data dir; resolves once AMQP answers. */
  start(): Promise<void>;
  /** `rabbitmqctl <args>` against this node; its stdout. */
  ctl(...args: string[]): string;
  stop(): Promise<void>;
}

/** Why RabbitMQ cannot be started here, or null. */
export function rabbitMissing(): string | null {
  return existsSync(SERVER) && existsSync(CTL) ? null : `RabbitMQ not installed (${SERVER}); install Debian's rabbitmq-server`;
}

/** A started broker, or null after `t.skip` when it is not installed (an error under CI=true). */
export async function rabbitFor(t: { skip(message: string): void; after(fn: () => void | Promise<void>): void }): Promise<RabbitServer | null> {
  const missing = rabbitMissing();
  if (missing) {
    if (process.env.CI === 'true') throw new Error(`RabbitMQ is required under CI: ${missing}`);
    t.skip(missing);
    return null;
  }
  const server = await startRabbit();
  t.after(() => server.stop());
  return server;
}

/** Whether AMQP completes a handshake within 2 s (a booting node accepts TCP before it speaks AMQP). */
async function answers(url: string): Promise<boolean> {
  const attempt = amqp.connect(url, { timeout: 1000 }).then(
    async (connection) => {
      await connection.close().catch(() => undefined);
      return true;
    },
    () => false,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2000)));
  return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
}

export async function startRabbit(): Promise<RabbitServer> {
  const root = mkdtempSync(join(tmpdir(), 'cb-rabbit-'));
  const [port, epmd, dist] = [await freePort(), await freePort(), await freePort()];
  const node = `cb${process.pid}x${port}@localhost`;
  // An empty plugin list: no management plugin, no extra listeners.
  writeFileSync(join(root, 'enabled_plugins'), '[].\n');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: root,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(dist),
    ERL_EPMD_PORT: String(epmd),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_MNESIA_BASE: join(root, 'mnesia'),
    RABBITMQ_LOG_BASE: join(root, 'log'),
    RABBITMQ_PID_FILE: join(root, 'rabbit.pid'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(root, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(root, 'rabbitmq'),
    RABBITMQ_ADVANCED_CONFIG_FILE: join(root, 'advanced.config'),
    RABBITMQ_CONF_ENV_FILE: join(root, 'rabbitmq-env.conf'),
  };
  const url = `amqp://guest:guest@127.0.0.1:${port}`;
  // Our own port mapper in the foreground, so that stopping it is a kill of a process we started.
  const mapper = spawn('epmd', ['-port', String(epmd), '-address', '127.0.0.1'], { env, stdio: 'ignore' });
  let proc: ChildProcess | null = null;
  const launch = async (): Promise<void> => {
    for (let attempt = 0; attempt < 2; attempt++) {
      // Its own process group: the shell wrapper and the Erlang VM die together.
      proc = spawn(SERVER, [], { env, detached: true, stdio: 'ignore' });
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (await answers(url)) return;
        if (proc.exitCode !== null) break;
        await sleep(200);
      }
      await killGroup();
    }
    throw new Error(`RabbitMQ did not start on ${port} (logs in ${join(root, 'log')})`);
  };
  const killGroup = async () => {
    const running = proc;
    proc = null;
    if (!running?.pid || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
  };
  await launch();
  let stopped = false;
  return {
    port,
    url,
    kill: killGroup,
    start: launch,
    ctl: (...args) => execFileSync(CTL, ['-n', node, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    async stop() {
      if (stopped) return;
      stopped = true;
      await killGroup();
      mapper.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
