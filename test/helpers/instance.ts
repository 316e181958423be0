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

// Start-up takes about a second at rest; on two cores at load 20 it was seen to take 15 s.
const START_MS = 60_000;

/** A real `checkbridge run` on port 0 everywhere, with the chosen addresses read from its logs. */
export async function startInstance(root: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}, wrapper?: readonly string[]): Promise<Instance> {
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
      wrapper,
    },
  );
  // Every service started (the configuration watcher among the last): what a test may rely on. A start-up that fails
  // or outlasts a loaded machine's bound stops the daemon, so that no test file is kept waiting for it.
  await daemon
    .waitFor((l) => l.msg === 'checkbridge running', START_MS)
    .catch(async (error: Error) => {
      await daemon.stop('SIGKILL');
      throw error;
    });
  const line = (msg: string) => daemon.logs.find((l) => l.msg === msg)!;
  const [socketLine, apiLine, agentLine, v2Line] = ['client socket listening', 'legacy API listening', 'agent API listening', 'v2 API listening'].map(line) as [
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
  ];
  return {
    daemon,
    socket: Number(String(socketLine.tcp).split(':').pop()),
    api: `http://${apiLine.address}`,
    agent: `http://${agentLine.address}`,
    v2: `http://${v2Line.address}`,
  };
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
  return getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

// Defined in wait.ts; offered here too because most tests poll an instance's API.
export { eventually } from './wait.js';

/** A running instance over a fresh tree of `files`, stopped (SIGKILL) and removed when the test ends. */
export async function instanceFor(
  t: { after(fn: () => Promise<void>): void },
  files: Record<string, string | object>,
  extra: string[] = [],
): Promise<Instance & { root: string }> {
  const root = makeTree(files);
  const instance = await startInstance(root, extra);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  return { ...instance, root };
}
