import { join } from 'node:path';
import { startDaemon, type Daemon } from './daemon.js';
import { makeTree, removeTree } from './tree.js';

export interface Instance {
  readonly daemon: Daemon;
  readonly socket: number;
  readonly api: string;
  readonly agent: string;
  /** The v2 API's base URL. */
  readonly v2: string;
}

/** The admin password every test instance starts with. */
export const ADMIN_PASSWORD = 'checkbridge-test-admin';
export const adminBasic = { authorization: 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64') };

/** A real `checkbridge run` on port 0 everywhere, with the chosen addresses read from its logs. */
export async function startInstance(root: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const daemon = startDaemon(['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), '--socket-port', '0', '--api-port', '0', '--agent-port', '0', '--v2-port', '0', '--agentd-port', '0', ...extra], {
    env: { CHECKBRIDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env },
  });
  const socketLine = await daemon.waitFor((l) => l.msg === 'client socket listening');
  const apiLine = await daemon.waitFor((l) => l.msg === 'legacy API listening');
  const agentLine = await daemon.waitFor((l) => l.msg === 'agent API listening');
  const v2Line = await daemon.waitFor((l) => l.msg === 'v2 API listening');
  // Every service started (the configuration watcher among the last): what a test may rely on.
  await daemon.waitFor((l) => l.msg === 'checkbridge running');
  return { daemon, socket: Number(String(socketLine.tcp).split(':').pop()), api: `http://${apiLine.address}`, agent: `http://${agentLine.address}`, v2: `http://${v2Line.address}` };
}

export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: response.status, body, headers: response.headers };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  return getJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

// Defined in wait.ts; offered here too because most tests poll an instance's API.
export { eventually } from './wait.js';

/** A running instance over a fresh tree of `files`, stopped (SIGKILL) and removed when the test ends. */
export async function instanceFor(t: { after(fn: () => Promise<void>): void }, files: Record<string, string | object>, extra: string[] = []): Promise<Instance & { root: string }> {
  const root = makeTree(files);
  const instance = await startInstance(root, extra);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  return { ...instance, root };
}
