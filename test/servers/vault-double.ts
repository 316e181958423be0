// A small HTTPS stand-in for a vault's key/value stores (the KV v1 and v2 HTTP API of HashiCorp Vault 1.x):
// `GET /v1/<mount>/<path>` (v1) and `GET /v1/<mount>/data/<path>` (v2), the X-Vault-Token check, and modes that
// make it slow, fail with 503 or drop connections. No real vault can be installed here.
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { makeCa } from './openssl-ca.js';

export type VaultMode = 'ok' | 'slow' | 'fail' | 'drop';

export interface VaultDouble {
  /** https://127.0.0.1:<port>; its certificate names only `serverName`, so clients need tls.cname. */
  readonly url: string;
  readonly serverName: string;
  readonly token: string;
  /** The throwaway CA's certificate, and a client certificate it signed (for mutual TLS). */
  readonly ca: string;
  readonly client: { cert: string; key: string };
  /** Every request that reached a route, in order, with its arrival time (ms). */
  readonly requests: { path: string; at: number }[];
  mode: VaultMode;
  slowMs: number;
  put(mount: string, path: string, data: Record<string, string>): void;
  close(): Promise<void>;
}

export interface VaultOptions {
  /** Mount → KV version. */
  readonly mounts: Record<string, 'v1' | 'v2'>;
  readonly token?: string;
  /** Demand a client certificate signed by the CA. */
  readonly mutualTls?: boolean;
}

const json = (status: number, body: unknown) => ({ status, text: JSON.stringify(body) });

export async function startVaultDouble(dir: string, options: VaultOptions): Promise<VaultDouble> {
  const serverName = 'vault.test';
  const pki = makeCa(dir);
  const server = pki.issue(serverName, []);
  const client = pki.issue('checkbridge-client', []);
  const token = options.token ?? 'test-vault-token';
  const mounts = new Map(Object.entries(options.mounts));
  const data = new Map<string, Record<string, string>>();
  const requests: { path: string; at: number }[] = [];

  const answer = (path: string, headerToken: string | undefined) => {
    if (headerToken !== token) return json(403, { errors: ['permission denied'] });
    const [mount, ...rest] = path.replace(/^\/v1\//, '').split('/');
    const version = mounts.get(mount ?? '');
    if (!version) return json(404, { errors: [] });
    if (version === 'v2') {
      if (rest[0] !== 'data') return json(404, { errors: [] });
      const found = data.get(`${mount}/${rest.slice(1).join('/')}`);
      if (!found) return json(404, { errors: [] });
      return json(200, {
        request_id: 'double',
        lease_id: '',
        renewable: false,
        lease_duration: 0,
        data: { data: found, metadata: { created_time: new Date().toISOString(), deletion_time: '', destroyed: false, version: 1 } },
        wrap_info: null,
        warnings: null,
        auth: null,
      });
    }
    const found = data.get(`${mount}/${rest.join('/')}`);
    if (!found) return json(404, { errors: [] });
    return json(200, {
      request_id: 'double',
      lease_id: '',
      renewable: false,
      lease_duration: 2764800,
      data: found,
      wrap_info: null,
      warnings: null,
      auth: null,
    });
  };

  const double = {
    url: '',
    serverName,
    token,
    ca: pki.ca,
    client,
    requests,
    mode: 'ok' as VaultMode,
    slowMs: 2000,
    put: (mount: string, path: string, values: Record<string, string>) => void data.set(`${mount}/${path}`, values),
    close: async (): Promise<void> => undefined,
  };

  const https: Server = createServer(
    {
      cert: readFileSync(server.cert),
      key: readFileSync(server.key),
      ...(options.mutualTls ? { ca: readFileSync(pki.ca), requestCert: true, rejectUnauthorized: true } : {}),
    },
    (request, response) => {
      requests.push({ path: request.url ?? '', at: Date.now() });
      if (double.mode === 'drop') return void request.socket.destroy();
      const reply =
        double.mode === 'fail'
          ? json(503, { errors: ['Vault is sealed'] })
          : answer(decodeURI(request.url ?? ''), request.headers['x-vault-token'] as string | undefined);
      const send = () => response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.text);
      if (double.mode === 'slow') setTimeout(send, double.slowMs).unref();
      else send();
    },
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  double.url = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  double.close = () =>
    new Promise<void>((resolve) => {
      https.closeAllConnections();
      https.close(() => resolve());
    });
  return double;
}
