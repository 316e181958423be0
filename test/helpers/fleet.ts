// checkbridge processes in separate roles over a broker: a server (APIs on port 0) and clients (sockets on port 0).
import { join } from 'node:path';
import { startDaemon, type Daemon } from './daemon.js';
import { makeTree, removeTree } from './tree.js';
import { ADMIN_PASSWORD } from './instance.js';

export interface FleetServer {
  readonly daemon: Daemon;
  readonly api: string;
  readonly root: string;
}

export interface FleetClient {
  readonly daemon: Daemon;
  readonly agent: string;
  readonly socket: number;
  readonly root: string;
}

type After = { after(fn: () => Promise<void>): void };

/** `run --role server` over a fresh tree; resolves once it listens and is connected to the broker. */
export async function fleetServer(
  t: After,
  transport: string,
  files: Record<string, string | object>,
  env: NodeJS.ProcessEnv = {},
  extra: string[] = [],
): Promise<FleetServer> {
  const root = makeTree(files);
  const daemon = startDaemon(
    [
      'run',
      join(root, 'conf.d'),
      '--role',
      'server',
      '--transport',
      transport,
      '--state-dir',
      join(root, 'state'),
      '--api-port',
      '0',
      '--v2-port',
      '0',
      '--agentd-port',
      '0',
      ...extra,
    ],
    {
      env: { CHECKBRIDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env },
    },
  );
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const apiLine = await daemon.waitFor((l) => l.msg === 'legacy API listening', 15_000);
  await daemon.waitFor((l) => l.msg === 'connected to transport', 25_000);
  return { daemon, api: `http://${apiLine.address}`, root };
}

/** `run --role client` over a fresh tree; resolves once its sockets listen and it is connected to the broker. */
export async function fleetClient(
  t: After,
  transport: string,
  files: Record<string, string | object>,
  env: NodeJS.ProcessEnv = {},
  extra: string[] = [],
): Promise<FleetClient> {
  const root = makeTree(files);
  const daemon = startDaemon(
    [
      'run',
      join(root, 'conf.d'),
      '--role',
      'client',
      '--transport',
      transport,
      '--state-dir',
      join(root, 'state'),
      '--socket-port',
      '0',
      '--agent-port',
      '0',
      ...extra,
    ],
    { env },
  );
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const socketLine = await daemon.waitFor((l) => l.msg === 'client socket listening', 15_000);
  const agentLine = await daemon.waitFor((l) => l.msg === 'agent API listening', 15_000);
  await daemon.waitFor((l) => l.msg === 'connected to transport', 25_000);
  return { daemon, agent: `http://${agentLine.address}`, socket: Number(String(socketLine.tcp).split(':').pop()), root };
}
