import { isIP } from 'node:net';
import type { Logger } from '../log.js';

/** Whether a bound address is a loopback one (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6). */
export function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** A listener reachable from other hosts without TLS says so at start. */
export function warnIfInsecure(logger: Logger, listener: string, address: { address: string; port: number }, tls: boolean): void {
  if (tls || isLoopback(address.address)) return;
  logger.warn({ listener, address: `${address.address}:${address.port}` }, `${listener} serves insecure requests: it listens beyond loopback without TLS`);
}
