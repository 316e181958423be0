import { createConnection } from 'node:net';
import { createSocket } from 'node:dgram';
import type { Spawner } from './mutate.js';
import type { Handler } from '../legacy/index.js';

export interface Delivery {
  readonly ok: boolean;
  /** A pipe handler's output and status; a socket handler's error. */
  readonly output?: string;
  readonly status?: number;
  readonly error?: string;
  readonly skipped?: string;
}

const socketOf = (handler: Handler) => (handler.socket ?? {}) as { host?: string; port?: number };

/** tcp: connect, write, close; `timeout` (default 10 s) covers the whole exchange. */
function sendTcp(handler: Handler, data: string): Promise<Delivery> {
  const { host, port } = socketOf(handler);
  const seconds = typeof handler.timeout === 'number' ? handler.timeout : 10;
  return new Promise((resolve) => {
    const socket = createConnection({ host: host ?? '127.0.0.1', port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ ok: false, error: `socket timeout after ${seconds} s (${host}:${port})` });
    }, seconds * 1000);
    socket.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `${error.message} (${host}:${port})` });
    });
    socket.on('connect', () => socket.end(data));
    socket.on('close', (hadError) => {
      clearTimeout(timer);
      if (!hadError) resolve({ ok: true });
    });
    // The peer may answer; we neither need nor keep it.
    socket.on('data', () => undefined);
  });
}

function sendUdp(handler: Handler, data: string): Promise<Delivery> {
  const { host, port } = socketOf(handler);
  return new Promise((resolve) => {
    const socket = createSocket(host?.includes(':') ? 'udp6' : 'udp4');
    socket.on('error', (error) => {
      socket.close();
      resolve({ ok: false, error: `${error.message} (${host}:${port})` });
    });
    socket.send(data, Number(port), host ?? '127.0.0.1', (error) => {
      socket.close();
      resolve(error ? { ok: false, error: `${error.message} (${host}:${port})` } : { ok: true });
    });
  });
}

/** Legacy transport.publish(type, pipe, message, options): false when the broker is not connected. */
export type TransportPublish = (type: 'direct' | 'fanout' | 'topic', pipe: string, body: string, options?: Record<string, unknown>) => boolean;

/** `pipe: {type, name, options}`: the options declare the exchange. */
function publishToPipe(handler: Handler, data: string, publish: TransportPublish): Delivery {
  const pipe = (handler.pipe ?? {}) as { type?: unknown; name?: unknown; options?: unknown };
  const type = pipe.type === 'direct' || pipe.type === 'fanout' || pipe.type === 'topic' ? pipe.type : null;
  if (!type || typeof pipe.name !== 'string') return { ok: false, error: 'transport handler needs pipe.type (direct, fanout or topic) and pipe.name' };
  const options =
    typeof pipe.options === 'object' && pipe.options !== null && !Array.isArray(pipe.options) ? (pipe.options as Record<string, unknown>) : undefined;
  return publish(type, pipe.name, data, options) ? { ok: true } : { ok: false, error: 'transport is not connected: event not published' };
}

/** Legacy handle_event by type. `transport` publishes when there is a broker, else is refused. */
export async function deliver(
  handler: Handler,
  data: string,
  spawn: Spawner,
  defaultTimeout: number | undefined,
  publish?: TransportPublish,
): Promise<Delivery> {
  switch (handler.type ?? 'pipe') {
    case 'pipe': {
      if (typeof handler.command !== 'string') return { ok: false, error: 'pipe handler has no command' };
      const timeout = typeof handler.timeout === 'number' ? handler.timeout : defaultTimeout;
      const run = await spawn(handler.command, { stdin: data, timeout });
      return { ok: run.status === 0, output: run.output, status: run.status };
    }
    case 'tcp':
      return data === '' ? { ok: true, skipped: 'empty data' } : sendTcp(handler, data);
    case 'udp':
      return data === '' ? { ok: true, skipped: 'empty data' } : sendUdp(handler, data);
    case 'transport':
      if (publish) return data === '' ? { ok: true, skipped: 'empty data' } : publishToPipe(handler, data, publish);
      return { ok: false, error: 'transport handlers are not supported: checkbridge has no message broker (use a pipe, tcp or udp handler)' };
    default:
      return { ok: false, error: `unknown handler type ${String(handler.type)}` };
  }
}
