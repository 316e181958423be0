// One HTTPS request with a chosen trust and client certificate: the answer's status, or the error that ended it.
import { request } from 'node:https';

export interface HttpsAnswer {
  readonly status?: number;
  readonly headers?: Record<string, string | string[] | undefined>;
  readonly body?: string;
  readonly error?: string;
}

export function httpsGet(
  url: string,
  tls: { ca?: string; cert?: string; key?: string },
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<HttpsAnswer> {
  return new Promise((resolve) => {
    const req = request(url, { ...tls, method, headers, agent: false, timeout: 10_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: `${error.code ?? ''} ${error.message}`.trim() }));
    req.end(body);
  });
}
