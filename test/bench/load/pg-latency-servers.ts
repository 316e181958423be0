// The pg-latency bench's parts: the delaying proxy's handle, a `checkbridge run` on SQLite or on PostgreSQL (through the
// proxy), and a /health sampler.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon, type Daemon } from '../../helpers/daemon.js';
import { freePort } from '../../helpers/net.js';
import { summary } from './latency.js';
import { ADMIN_PASSWORD, AGENT_PASSWORD, treeCpuMs } from './vs-servers.js';

export interface ProxyCounts {
  connections: number;
  round_trips: number;
  statements: number;
  simple_queries: number;
  client_bytes: number;
  server_bytes: number;
  delay_ms: number;
  /** Round trips of each connection, in the order they were opened. */
  per_connection: number[];
}

export interface DelayProxy {
  readonly port: number;
  /** Sets the added round trip (ms), for connections open and new; answers the counters. */
  setDelay(ms: number): Promise<ProxyCounts>;
  counts(): Promise<ProxyCounts>;
  stop(): Promise<void>;
}

export async function startDelayProxy(upstreamPort: number, roundTripMs: number): Promise<DelayProxy> {
  const proc = fork(fileURLToPath(new URL('./delay-proxy.js', import.meta.url)), [String(upstreamPort), String(roundTripMs)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [chunk] = (await once(proc.stdout!, 'data')) as [Buffer];
  const ask = async (message: object): Promise<ProxyCounts> => {
    const answer = once(proc, 'message') as Promise<[ProxyCounts]>;
    proc.send(message);
    return (await answer)[0];
  };
  return {
    port: Number(chunk.toString().trim()),
    setDelay: (ms) => ask({ delay_ms: ms }),
    counts: () => ask({ stats: true }),
    stop: async () => {
      proc.kill('SIGKILL');
      await once(proc, 'exit').catch(() => undefined);
    },
  };
}

export interface BenchServer {
  readonly label: string;
  readonly pid: number;
  readonly api: string;
  readonly agentUrl: string;
  readonly daemon: Daemon;
  cpuMs(): number;
  stop(): Promise<void>;
}

/** `checkbridge run` with fresh state; on PostgreSQL when `dsn` is given (`--store-dsn`), else on its SQLite file. */
export async function startServer(label: string, dsn: string | null): Promise<BenchServer> {
  const root = mkdtempSync(join(tmpdir(), 'checkbridge-pg-latency-'));
  const [v2, agentd] = [await freePort(), await freePort()];
  mkdirSync(join(root, 'conf.d'));
  writeFileSync(join(root, 'conf.d', 'client.json'), JSON.stringify({ client: { name: label, address: '127.0.0.1', subscriptions: [] } }));
  writeFileSync(join(root, 'conf.d', 'checkbridge.json'), JSON.stringify({ checkbridge: { entity_limit: 0 } }));
  const args = ['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), '--socket-port', '0', '--api-port', '0', '--agent-port', '0'];
  args.push('--v2-port', String(v2), '--agentd-port', String(agentd), ...(dsn ? ['--store-dsn', dsn] : []));
  const daemon = startDaemon(args, { env: { CHECKBRIDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD } });
  const api = `http://127.0.0.1:${v2}`;
  const stop = async () => (await daemon.stop('SIGKILL'), rmSync(root, { recursive: true, force: true }));
  for (const deadline = Date.now() + 120_000; ; await sleep(20)) {
    const ok = await fetch(`${api}/health`).then(
      async (r) => (await r.arrayBuffer(), r.status === 200),
      () => false,
    );
    if (ok) break;
    if (daemon.proc.exitCode !== null || Date.now() > deadline)
      throw (await stop(), new Error(`${label}: no /health 200: ${JSON.stringify(daemon.logs.slice(-5))}`));
  }
  const pid = daemon.proc.pid!;
  return { label, pid, api, agentUrl: `ws://127.0.0.1:${agentd}`, daemon, cpuMs: () => treeCpuMs(pid), stop };
}

/** `GET /health` one at a time, a new one 100 ms after the last began (or when it answers, if later), until stopped. */
export function sampleHealth(server: BenchServer): { stop(): Promise<Record<string, number>> } {
  const latencies: number[] = [];
  let [running, failures] = [true, 0];
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${server.api}/health`).then(
        async (r) => (await r.arrayBuffer(), r.status === 200),
        () => false,
      );
      latencies.push(performance.now() - started);
      if (!ok) failures += 1;
      await sleep(Math.max(0, 100 - (performance.now() - started)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return {
        ...summary(latencies, 'health'),
        health_max_ms: +Math.max(0, ...latencies).toFixed(1),
        health_samples: latencies.length,
        health_failures: failures,
      };
    },
  };
}

/** The daemon's `sensu_go_events_processed` total: every event that left the intake. */
export async function eventsProcessed(server: BenchServer): Promise<number> {
  const text = await (await fetch(`${server.api}/metrics`)).text();
  let total = 0;
  for (const match of text.matchAll(/^sensu_go_events_processed\{[^}]*\} (\d+)/gm)) total += Number(match[1]);
  return total;
}

/** Log lines of `server` since line `from` saying it lost or won the election. */
export function elections(server: BenchServer, from = 0): { lost: number; won: number } {
  const lines = server.daemon.logs.slice(from);
  const count = (prefix: string) => lines.filter((l) => String(l.msg).startsWith(prefix)).length;
  return { lost: count('lost the election'), won: count('became the elected server') };
}
