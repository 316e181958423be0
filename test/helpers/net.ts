import { connect } from 'node:net';
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
