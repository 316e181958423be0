// The real Sensu Go agent (../shared/interop/sensu-agent) against a checkbridge instance's agent WebSocket.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED } from './paths.js';
import { startInstance, type Instance } from './instance.js';
import { makeTree, removeTree } from './tree.js';
import { freePort } from './net.js';

export const SENSU_AGENT = join(SHARED, 'interop', 'sensu-agent');
export const AGENT_PASSWORD = 'checkbridge-test-agent';

/** Why the real agent cannot run here (false when it can); in CI a missing binary fails instead of skipping. */
export function agentSkipReason(): string | false {
  const reason = existsSync(SENSU_AGENT) ? false : `the real sensu-agent is absent (${SENSU_AGENT}); it exists beside the project only in CI and development`;
  if (reason && process.env.CI === 'true') throw new Error(`${reason}: required in CI`);
  return reason;
}

export interface RunningAgent {
  readonly proc: ChildProcess;
  readonly apiPort: number;
  readonly socketPort: number;
  readonly lines: Record<string, unknown>[];
  waitFor(match: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the real agent with its API and socket on free ports, a private cache directory, and JSON logs collected. */
export async function startAgent(t: { after(fn: () => Promise<void>): void }, backendUrl: string, name: string, extra: string[] = []): Promise<RunningAgent> {
  const [apiPort, socketPort] = [await freePort(), await freePort()];
  const cache = mkdtempSync(join(tmpdir(), 'checkbridge-agent-'));
  const args = [
    'start',
    '--backend-url',
    backendUrl,
    '--name',
    name,
    '--cache-dir',
    cache,
    '--api-port',
    String(apiPort),
    '--socket-port',
    String(socketPort),
    '--statsd-disable',
    '--log-level',
    'debug',
    ...extra,
  ];
  const proc = spawn(SENSU_AGENT, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  proc.stderr!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line));
      } catch {
        lines.push({ msg: line });
      }
    }
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
  };
  t.after(async () => {
    await stop();
    rmSync(cache, { recursive: true, force: true });
  });
  return {
    proc,
    apiPort,
    socketPort,
    lines,
    stop,
    waitFor(match, ms = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`agent ${name}: timed out waiting for a log line; last: ${JSON.stringify(lines.slice(-4))}`)), ms);
        const check = () => {
          const found = lines.find(match);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}

/** An instance with its agent WebSocket's URL, stopped and removed when the test ends. */
export async function agentInstanceFor(
  t: { after(fn: () => Promise<void>): void },
  files: Record<string, string | object>,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<Instance & { root: string; agentd: string }> {
  const root = makeTree(files);
  const instance = await startInstance(root, extra, { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD, ...env });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const line = await instance.daemon.waitFor((l) => l.msg === 'agent WebSocket listening');
  return { ...instance, root, agentd: `${line.tls ? 'wss' : 'ws'}://${String(line.address)}` };
}

/** The agent's usual flags for a test: short keepalives, Basic auth as the bootstrapped `agent` user. */
export const agentFlags = (password = AGENT_PASSWORD) => [
  '--user',
  'agent',
  '--password',
  password,
  '--keepalive-interval',
  '1',
  '--keepalive-warning-timeout',
  '5',
];
