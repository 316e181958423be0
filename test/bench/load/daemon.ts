import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { writeFileSync, mkdirSync } from 'node:fs';
import { startDaemon, type Daemon } from '../../helpers/daemon.js';

export const ADMIN_PASSWORD = 'bench-admin-password';

/** `checkbridge run` over `confd` (written as JSON files) on port 0 everywhere; CHECKBRIDGE_BENCH_BIN picks another build. */
export async function benchDaemon(
  root: string,
  files: Record<string, object>,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): Promise<{ daemon: Daemon; socket: number; v2: string; pid: number }> {
  mkdirSync(join(root, 'conf.d'), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(root, 'conf.d', name), JSON.stringify(content));
  const daemon = startDaemon(
    [
      'run',
      join(root, 'conf.d'),
      '--state-dir',
      join(root, 'state'),
      '--socket-port',
      '0',
      '--api-port',
      '0',
      '--agent-port',
      '0',
      '--v2-port',
      '0',
      '--agentd-port',
      '0',
      ...extra,
    ],
    {
      env: { CHECKBRIDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env },
      nodeArgs,
      ...(process.env.CHECKBRIDGE_BENCH_BIN ? { bin: process.env.CHECKBRIDGE_BENCH_BIN } : {}),
    },
  );
  const socketLine = await daemon.waitFor((l) => l.msg === 'client socket listening', 30_000);
  const v2Line = await daemon.waitFor((l) => l.msg === 'v2 API listening', 30_000);
  return { daemon, socket: Number(String(socketLine.tcp).split(':').pop()), v2: `http://${v2Line.address}`, pid: daemon.proc.pid! };
}

/** A baseline server of this directory in its own process; resolves with its port and a stop function. */
export async function startBaseline(script: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const proc: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL(`./${script}.js`, import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(proc.stdout!, 'data')) as [Buffer];
  return {
    port: Number(chunk.toString().trim()),
    stop: async () => {
      proc.kill('SIGKILL');
      await once(proc, 'exit').catch(() => undefined);
    },
  };
}
