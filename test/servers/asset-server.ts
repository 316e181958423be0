// An HTTPS server for runtime asset archives: whole files, files cut short (the connection closes early), request counts.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCa } from '../helpers/tls.js';

export interface Served {
  readonly body: Buffer;
  /** Send only this many bytes, then destroy the connection (Content-Length still announces the whole body). */
  readonly truncateAt?: number;
  /** Hold the response this long first, so concurrent requests overlap. */
  readonly delayMs?: number;
  /** Send no Content-Length (chunked), so only the bytes as they arrive tell the size. */
  readonly chunked?: boolean;
  /** Answer 404 unless this header carries this value. */
  readonly requireHeader?: readonly [string, string];
}

export interface AssetServer {
  readonly url: (path: string) => string;
  readonly serve: (path: string, served: Served) => void;
  /** Requests per path. */
  readonly hits: (path: string) => number;
  close(): Promise<void>;
}

/** `issued`: the server's certificate (by default one of `ca` for 127.0.0.1 and localhost). */
export async function startAssetServer(
  ca: TestCa,
  minVersion: 'TLSv1.2' | 'TLSv1.3' = 'TLSv1.2',
  issued: { cert: string; key: string } = ca.issue(),
): Promise<AssetServer> {
  const { cert, key } = issued;
  const files = new Map<string, Served>();
  const counts = new Map<string, number>();
  const server: Server = createServer({ cert, key, minVersion }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const served = files.get(path);
    if (!served || (served.requireHeader && request.headers[served.requireHeader[0].toLowerCase()] !== served.requireHeader[1])) {
      response.writeHead(404).end('not found');
      return;
    }
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/octet-stream', ...(served.chunked ? {} : { 'content-length': String(served.body.length) }) });
      if (served.truncateAt === undefined) return void response.end(served.body);
      response.write(served.body.subarray(0, served.truncateAt), () => setTimeout(() => request.socket.destroy(), 50));
    }, served.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    serve: (path, served) => void files.set(path, served),
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
