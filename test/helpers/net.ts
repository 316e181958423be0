import { connect, createServer } from 'node:net';
import { createSocket } from 'node:dgram';

/** Sends `payload` over one TCP connection (optionally in pieces) and returns everything the peer answered. */
export function tcpExchange(port: number, payload: string | Buffer | (string | Buffer)[], gapMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    const parts = Array.isArray(payload) ? payload : [payload];
    socket.on('connect', async () => {
      for (const part of parts) {
        socket.write(part);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

/**
 * A port free now on 127.0.0.1, for a listener that needs a fixed port. `belowEphemeral` picks one under the kernel's
 * ephemeral range (32768-60999), so a test that restarts on the same port does not lose it to another's `listen(0)`.
 */
export async function freePort(options: { belowEphemeral?: boolean } = {}): Promise<number> {
  for (;;) {
    const wanted = options.belowEphemeral ? 20_000 + Math.floor(Math.random() * 12_000) : 0;
    const server = createServer();
    const bound = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error) => (wanted ? resolve(false) : reject(error)));
      server.listen(wanted, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

export function udpSend(port: number, payload: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.send(payload, port, '127.0.0.1', (error) => {
      socket.close();
      if (error) reject(error);
      else resolve();
    });
  });
}

export interface Collector {
  readonly port: number;
  /** One entry per TCP connection (its whole payload) or per UDP datagram. */
  readonly received: string[];
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1, port 0, that keeps what each connection sent. */
export function tcpCollector(host = '127.0.0.1'): Promise<Collector> {
  const received: string[] = [];
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('end', () => {
      received.push(data);
      socket.end();
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, host, () =>
      resolve({ port: (server.address() as { port: number }).port, received, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

export function udpCollector(): Promise<Collector> {
  const received: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message) => received.push(message.toString()));
  return new Promise((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve({ port: socket.address().port, received, close: () => new Promise((r) => socket.close(() => r())) })),
  );
}
