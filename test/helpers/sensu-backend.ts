// The real Sensu Go backend (../shared/interop/sensu-backend) on loopback: free ports, a fresh state directory, `init` for the admin.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED } from './paths.js';
import { freePort } from './net.js';
import { eventually } from './wait.js';

export const SENSU_BACKEND = join(SHARED, 'interop', 'sensu-backend');
export const BACKEND_ADMIN_PASSWORD = 'checkbridge-test-admin';

/** Why the real backend cannot run here (false when it can); in CI a missing binary fails instead of skipping. */
export function backendSkipReason(): string | false {
  const reason = existsSync(SENSU_BACKEND)
    ? false
    : `the real sensu-backend is absent (${SENSU_BACKEND}); it exists beside the project only in CI and development`;
  if (reason && process.env.CI === 'true') throw new Error(`${reason}: required in CI`);
  return reason;
}

export interface RunningBackend {
  /** The API's base URL. */
  readonly api: string;
  /** Everything it logged, for a failure's message. */
  readonly log: () => string;
}

// Its start-up is about 2.5 s at rest; a loaded two-core machine can take many times that.
const START_MS = 60_000;

/** Starts the real backend with its embedded etcd on free loopback ports and creates the admin; stopped and removed when the test ends. */
export async function startBackend(t: { after(fn: () => Promise<void>): void }): Promise<RunningBackend> {
  const [api, agent, dash, client, peer] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-backend-'));
  const [clientUrl, peerUrl] = [`http://127.0.0.1:${client}`, `http://127.0.0.1:${peer}`];
  const etcd = ['--etcd-listen-client-urls', clientUrl, '--etcd-listen-peer-urls', peerUrl, '--etcd-initial-cluster', `default=${peerUrl}`];
  etcd.push('--etcd-advertise-client-urls', clientUrl, '--etcd-initial-advertise-peer-urls', peerUrl);
  const args = ['start', '--config-file', '/dev/null', '--state-dir', dir, '--cache-dir', join(dir, 'cache'), '--api-listen-address', `127.0.0.1:${api}`];
  args.push('--api-url', `http://127.0.0.1:${api}`, '--agent-host', '127.0.0.1', '--agent-port', String(agent), '--dashboard-host', '127.0.0.1');
  args.push('--dashboard-port', String(dash), '--disable-platform-metrics', ...etcd, '--log-level', 'warn');
  const proc = spawn(SENSU_BACKEND, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  t.after(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${api}`;
  const healthy = await eventually(
    () =>
      fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok || proc.exitCode !== null,
    START_MS,
  );
  if (!healthy) throw new Error(`sensu-backend did not answer /health at ${base}: ${output.slice(-2000)}`);
  const env = { PATH: process.env.PATH, SENSU_BACKEND_CLUSTER_ADMIN_USERNAME: 'admin', SENSU_BACKEND_CLUSTER_ADMIN_PASSWORD: BACKEND_ADMIN_PASSWORD };
  const init = spawnSync(SENSU_BACKEND, ['init', '--config-file', '/dev/null', '--etcd-client-urls', clientUrl, '--timeout', '30s'], { env, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`sensu-backend init exited ${String(init.status)}: ${init.stdout}${init.stderr}`);
  return { api: base, log: () => output };
}
