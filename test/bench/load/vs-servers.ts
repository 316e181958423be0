// checkbridge and the real sensu-backend on free loopback ports with fresh state, alike to the benchmark: pid, API, agent URL, an API key.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon } from '../../helpers/daemon.js';
import { freePort } from '../../helpers/net.js';
import { SENSU_BACKEND } from '../../helpers/sensu-backend.js';

export const ADMIN_PASSWORD = 'bench-admin-password';
// The agent user `init` creates on the real backend; checkbridge is given the same.
export const AGENT_PASSWORD = 'P@ssw0rd!';
const START_MS = 120_000;

export interface Server {
  readonly name: 'checkbridge' | 'sensu_backend';
  readonly pid: number;
  readonly api: string;
  readonly agentUrl: string;
  /** From spawn to the first `/health` 200, in seconds. */
  readonly startS: number;
  readonly spawnedAt: number;
  stop(): Promise<void>;
  log(): string;
}

/** The pids of `pid` and every descendant (the backend's etcd is embedded; checkbridge's helpers are children). */
export function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone since the listing.
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []));
  return all;
}

/** CPU (user + system, with reaped children's) of the whole tree, in ms. */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Exited between the listing and the read.
    }
  }
  return ticks * 10;
}

/** Resident memory of the whole tree, in bytes. */
export function treeRss(pid: number): number {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Exited between the listing and the read.
    }
  }
  return kb * 1024;
}

async function untilHealthy(api: string, exited: () => boolean, log: () => string): Promise<void> {
  const deadline = Date.now() + START_MS;
  for (;;) {
    const ok = await fetch(`${api}/health`).then(
      (r) => (r.arrayBuffer(), r.status === 200),
      () => false,
    );
    if (ok) return;
    if (exited() || Date.now() > deadline) throw new Error(`no /health 200 at ${api} (exited: ${exited()}): ${log().slice(-2000)}`);
    await sleep(10);
  }
}

export async function startCheckbridge(): Promise<Server> {
  const root = mkdtempSync(join(tmpdir(), 'checkbridge-vs-'));
  const [v2, agentd] = [await freePort(), await freePort()];
  mkdirSync(join(root, 'conf.d'));
  writeFileSync(join(root, 'conf.d', 'client.json'), JSON.stringify({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } }));
  writeFileSync(join(root, 'conf.d', 'checkbridge.json'), JSON.stringify({ checkbridge: { entity_limit: 0 } }));
  const args = ['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), '--socket-port', '0', '--api-port', '0', '--agent-port', '0'];
  const spawnedAt = performance.now();
  const daemon = startDaemon([...args, '--v2-port', String(v2), '--agentd-port', String(agentd)], {
    env: { CHECKBRIDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD },
  });
  const log = () => daemon.logs.map((l) => JSON.stringify(l)).join('\n');
  const api = `http://127.0.0.1:${v2}`;
  await untilHealthy(api, () => daemon.proc.exitCode !== null, log);
  const startS = (performance.now() - spawnedAt) / 1000;
  const stop = async () => (await daemon.stop('SIGKILL'), rmSync(root, { recursive: true, force: true }));
  return { name: 'checkbridge', pid: daemon.proc.pid!, api, agentUrl: `ws://127.0.0.1:${agentd}`, startS, spawnedAt, stop, log };
}

/** The real backend with its embedded etcd; its start counts to `/health` 200, `init` (the admin and agent users) follows. */
export async function startSensuBackend(): Promise<Server> {
  const [api, agent, dash, client, peer] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-vs-backend-'));
  const [clientUrl, peerUrl] = [`http://127.0.0.1:${client}`, `http://127.0.0.1:${peer}`];
  const args = ['start', '--config-file', '/dev/null', '--state-dir', dir, '--cache-dir', join(dir, 'cache'), '--api-listen-address', `127.0.0.1:${api}`];
  args.push('--api-url', `http://127.0.0.1:${api}`, '--agent-host', '127.0.0.1', '--agent-port', String(agent), '--dashboard-host', '127.0.0.1');
  args.push('--dashboard-port', String(dash), '--disable-platform-metrics', '--log-level', 'warn');
  args.push('--etcd-listen-client-urls', clientUrl, '--etcd-listen-peer-urls', peerUrl, '--etcd-initial-cluster', `default=${peerUrl}`);
  args.push('--etcd-advertise-client-urls', clientUrl, '--etcd-initial-advertise-peer-urls', peerUrl);
  const spawnedAt = performance.now();
  const proc = spawn(SENSU_BACKEND, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${api}`;
  try {
    await untilHealthy(
      base,
      () => proc.exitCode !== null,
      () => output,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const startS = (performance.now() - spawnedAt) / 1000;
  const env = { PATH: process.env.PATH, SENSU_BACKEND_CLUSTER_ADMIN_USERNAME: 'admin', SENSU_BACKEND_CLUSTER_ADMIN_PASSWORD: ADMIN_PASSWORD };
  const init = spawnSync(SENSU_BACKEND, ['init', '--config-file', '/dev/null', '--etcd-client-urls', clientUrl, '--timeout', '60s'], { env, encoding: 'utf8' });
  if (init.status !== 0) throw (await stop(), new Error(`sensu-backend init exited ${String(init.status)}: ${init.stdout}${init.stderr}`));
  return { name: 'sensu_backend', pid: proc.pid!, api: base, agentUrl: `ws://127.0.0.1:${agent}`, startS, spawnedAt, stop, log: () => output };
}

/** An API key of the admin, as `Key …`: it outlives any run, where an access token would expire during a long connect. */
export async function apiKey(server: Server): Promise<string> {
  const basic = 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
  for (let attempt = 0; ; attempt++) {
    const login = await fetch(`${server.api}/auth`, { headers: { authorization: basic } });
    const body = (await login.json().catch(() => ({}))) as { access_token?: string };
    if (body.access_token) {
      const grant = await fetch(`${server.api}/api/core/v2/apikeys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin' }),
      });
      const location = grant.headers.get('location');
      if (grant.status === 201 && location) return `Key ${location.split('/').pop()!}`;
      throw new Error(`${server.name}: POST /api/core/v2/apikeys answered ${grant.status}: ${await grant.text()}`);
    }
    // A loaded machine can answer a login busy: tried again, a second apart.
    if (attempt >= 30) throw new Error(`${server.name}: /auth answered ${login.status}: ${JSON.stringify(body)}`);
    await sleep(1000);
  }
}
