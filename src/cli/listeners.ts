import type { Logger } from 'pino';
import { CheckbridgeError, ERRORS } from '../errors.js';
import { warnIfInsecure } from './insecure-listener.js';

export interface ListenerFlags {
  apiBind?: string;
  apiPort?: string;
  socketBind?: string;
  socketPort?: string;
  agentBind?: string;
  agentPort?: string;
  v2Bind?: string;
  v2Port?: string;
  agentdBind?: string;
  agentdPort?: string;
}

function port(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CheckbridgeError('CB_CLI_USAGE', `${what}: not a port: ${text}`);
  return n;
}

type ListenerName = 'api' | 'socket' | 'agent' | 'v2' | 'agentd';

const PORT_SETTINGS: Record<ListenerName, string> = {
  api: 'api.port',
  socket: 'client.socket.port',
  agent: 'client.http_socket.port',
  v2: 'checkbridge.v2_api.port',
  agentd: 'checkbridge.agentd.port',
};

/** Why a listener could not start, with where its address comes from: the operator learns which flag to change. */
export function listenFailure(name: ListenerName, error: unknown): unknown {
  if (!(error instanceof CheckbridgeError) || error.code !== 'CB_LISTEN') return error;
  const busy = error.message.includes('EADDRINUSE') ? 'the port is in use: ' : '';
  const where = `--${name}-port (env CHECKBRIDGE_${name.toUpperCase()}_PORT; settings ${PORT_SETTINGS[name]}) or --${name}-bind`;
  const detail = error.message.slice(`${ERRORS.CB_LISTEN.message}: `.length);
  return new CheckbridgeError('CB_LISTEN', `${detail} (${busy}choose another with ${where})`);
}

/** Flag beats environment beats settings beats default, for one listener's address. */
export function listenerFrom(
  name: ListenerName,
  flags: ListenerFlags,
  configured: { bind?: string | undefined; port?: number | undefined },
  defaults: { bind: string; port: number },
  env = process.env,
): { bind: string; port: number; which: ListenerName } {
  const upper = name.toUpperCase();
  const flagBind = { api: flags.apiBind, socket: flags.socketBind, agent: flags.agentBind, v2: flags.v2Bind, agentd: flags.agentdBind }[name];
  const flagPort = { api: flags.apiPort, socket: flags.socketPort, agent: flags.agentPort, v2: flags.v2Port, agentd: flags.agentdPort }[name];
  const bind = flagBind ?? env[`CHECKBRIDGE_${upper}_BIND`] ?? configured.bind ?? defaults.bind;
  const portText = flagPort ?? env[`CHECKBRIDGE_${upper}_PORT`];
  return { bind, port: portText !== undefined ? port(portText, `--${name}-port`) : (configured.port ?? defaults.port), which: name };
}

/** Listens, or fails start-up naming the listener and address; then logs `<name> listening` and warns when insecure. */
export async function startHttpListener(
  app: { listen(options: { host: string; port: number }): Promise<unknown>; server: { address(): unknown } },
  name: string,
  listen: { bind: string; port: number; which: ListenerName },
  tls: boolean,
  logger: Logger,
): Promise<{ address: string; port: number }> {
  await app.listen({ host: listen.bind, port: listen.port }).catch((error: NodeJS.ErrnoException) => {
    throw listenFailure(listen.which, new CheckbridgeError('CB_LISTEN', `${name} ${listen.bind}:${listen.port}: ${error.code ?? error.message}`));
  });
  const address = app.server.address() as { address: string; port: number };
  logger.info({ address: `${address.address}:${address.port}`, tls }, `${name} listening`);
  warnIfInsecure(logger, name, address, tls);
  return address;
}
