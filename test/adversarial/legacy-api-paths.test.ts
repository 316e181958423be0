// The legacy API's routes under hostile request targets: encoded separators and dots, absolute form, odd methods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { instanceFor } from '../helpers/instance.js';

const CREDENTIALS = 'Basic ' + Buffer.from('ops:ops-pw').toString('base64');

/** One raw HTTP/1.1 request, the target sent exactly as written (fetch would normalise dots and encodings). */
function raw(api: string, method: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(api);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const lines = [`${method} ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', 'Content-Length: 0'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.on('connect', () => socket.write(lines.join('\r\n') + '\r\n\r\n'));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });
}

const files = {
  'conf.d/client.json': { client: { name: 'web-1', address: '127.0.0.1', subscriptions: ['web'] } },
  'conf.d/api.json': { api: { user: 'ops', password: 'ops-pw' } },
  'conf.d/checks.json': { checks: { disk: { command: 'true', subscribers: ['web'], interval: 60 } } },
};

// Targets that name no resource of this instance, each a way of reaching one by another spelling.
const HOSTILE = [
  '/clients/%2e%2e',
  '/clients/..%2fchecks',
  '/clients/web-1%2fhistory',
  '/events/web-1/disk%00',
  '/events/web-1%2fdisk',
  '/results/%2e/disk',
  '/stashes/..%2f..%2fetc%2fpasswd',
  '/checks/disk%2f..%2f..%2finfo',
  '//clients',
  '/clients/%ZZ',
];

// The absolute form is plain HTTP: it reaches the route its path names, so it must meet the same credentials.
const ABSOLUTE = ['http://127.0.0.1/settings?redacted=false', 'http://evil.example/clients', '*'];

test('legacy API: no request target, however spelled, is answered without the credentials, and none is a 500', async (t) => {
  const { api } = await instanceFor(t, files);
  for (const target of [...HOSTILE, ...ABSOLUTE, '/info', '/settings?redacted=false', '/clients/web-1', '/nowhere'])
    for (const method of ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']) {
      const answer = await raw(api, method, target);
      assert.ok([400, 401].includes(answer.status), `${method} ${target} without credentials: ${answer.status}`);
      assert.doesNotMatch(answer.text, /web-1|disk|ops-pw/, `${method} ${target}: nothing of the instance in the refusal`);
    }
});

test('legacy API: with the credentials, an encoded separator or dot segment names nothing: 4xx, never another resource, never a 500', async (t) => {
  const { api } = await instanceFor(t, files);
  const auth = { Authorization: CREDENTIALS };
  assert.equal((await raw(api, 'GET', '/clients/web-1', auth)).status, 200, 'the credentials work');
  for (const target of HOSTILE)
    for (const method of ['GET', 'DELETE', 'POST']) {
      const answer = await raw(api, method, target, auth);
      // A list of a client no one is called (`/events/web-1%2fdisk`) is legacy's empty list; anything else a 4xx.
      const emptyList = answer.status === 200 && method === 'GET' && answer.text.endsWith('\r\n\r\n[]');
      assert.ok(emptyList || (answer.status >= 400 && answer.status < 500), `${method} ${target}: ${answer.status} ${answer.text.slice(-200)}`);
    }
  // Nothing was deleted by any of them: the client and its check are still there.
  assert.equal((await raw(api, 'GET', '/clients/web-1', auth)).status, 200);
  assert.equal((await raw(api, 'GET', '/checks/disk', auth)).status, 200);
});
