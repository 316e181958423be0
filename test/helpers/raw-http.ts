import { request } from 'node:http';

export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One HTTP request with the request target sent exactly as given (fetch would normalise it). */
export function rawRequest(base: string, method: string, target: string, headers: Record<string, string> = {}, body?: unknown): Promise<RawReply> {
  const url = new URL(base);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: target,
        headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Spellings of one path that a router may decode to the same route: percent-encoded letters, absolute form, dot and empty segments. */
export function pathVariants(base: string, path: string): string[] {
  const encodeAt = (index: number) => path.slice(0, index) + '%' + path.charCodeAt(index).toString(16) + path.slice(index + 1);
  const letters = [...path].map((c, i) => (/[a-z]/.test(c) ? i : -1)).filter((i) => i >= 0);
  const picks = [letters[0]!, letters[2]!, letters[Math.floor(letters.length / 2)]!, letters[letters.length - 1]!];
  const upper = (index: number) => path.slice(0, index) + '%' + path.charCodeAt(index).toString(16).toUpperCase() + path.slice(index + 1);
  const secondSlash = path.indexOf('/', 1);
  return [
    ...picks.map(encodeAt),
    upper(picks[1]!),
    [...path].map((c) => (c === '/' ? c : '%' + c.charCodeAt(0).toString(16))).join(''),
    `${base}${path}`,
    `/x/..${path}`,
    `/.${path}`,
    path.slice(0, secondSlash) + '/.' + path.slice(secondSlash),
    path.slice(0, secondSlash) + '/%2e' + path.slice(secondSlash),
    path.slice(0, secondSlash) + '/x/%2e%2e' + path.slice(secondSlash),
    `/${path}`,
    path.slice(0, secondSlash) + '%2f' + path.slice(secondSlash + 1),
    path.slice(0, secondSlash) + '%2F' + path.slice(secondSlash + 1),
    path.slice(0, secondSlash) + '%5c' + path.slice(secondSlash + 1),
  ];
}
