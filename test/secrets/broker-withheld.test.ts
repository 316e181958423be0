// Over a broker a remote client cannot prove mutual TLS: the server says once per check and client that it runs the
// check without its secrets; the in-process client, which resolves them itself, is not named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { withWithheldSecretsLogged } from '../../src/secrets/broker-withheld.js';
import { RemoteSecrets } from '../../src/secrets/remote-delivery.js';
import { InProcessTransport } from '../../src/transport/in-process.js';
import type { CheckRequest } from '../../src/transport/transport.js';

function logged() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { lines, secrets: new RemoteSecrets(async () => ({ ok: true as const, env: {}, values: [] }), logger) };
}

const clients = [
  { name: 'local', subscriptions: ['linux', 'client:local'] },
  { name: 'web-1', subscriptions: ['linux', 'client:web-1'] },
  { name: 'proxy-1', type: 'proxy', subscriptions: ['linux'] },
  { name: 'win-1', subscriptions: ['windows'] },
];

const withSecrets = { name: 'disk', command: 'x', issued: 1, secrets: [{ name: 'TOKEN', secret: 'api-token' }] } as unknown as CheckRequest;

test('a request with secrets names each remote subscriber once, and still goes to every subscriber', async () => {
  const { lines, secrets } = logged();
  const inner = new InProcessTransport();
  const transport = withWithheldSecretsLogged(inner, { clients: () => clients, local: () => 'local', namespace: () => 'default', secrets });
  const got: string[] = [];
  transport.subscribe('linux', 'local', (r) => got.push(`local:${r.name}`));
  transport.subscribe('linux', 'web-1', (r) => got.push(`web-1:${r.name}`));
  transport.publish('linux', withSecrets);
  transport.publish('linux', withSecrets);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(got, ['local:disk', 'web-1:disk', 'local:disk', 'web-1:disk']);
  assert.equal(lines.length, 1, 'once per check and client');
  assert.equal(lines[0]!.client, 'web-1');
  assert.equal(lines[0]!.check, 'disk');
  assert.equal(lines[0]!.namespace, 'default');
  assert.equal(lines[0]!.msg, 'secrets withheld: the client runs the check without them');
  assert.match(String(lines[0]!.reason), /cannot prove mutual TLS to the server: secrets are sent only over mutual TLS/);
  transport.publish('client:web-1', { ...withSecrets, name: 'load' } as CheckRequest);
  assert.deepEqual(
    lines.map((l) => [l.client, l.check]),
    [
      ['web-1', 'disk'],
      ['web-1', 'load'],
    ],
    'a client subscription reaches its client',
  );
  await transport.close();
});

test('a request without secrets says nothing; with no in-process client every remote one is named', () => {
  const { lines, secrets } = logged();
  const transport = withWithheldSecretsLogged(new InProcessTransport(), { clients: () => clients, local: () => null, namespace: () => 'ops', secrets });
  transport.publish('linux', { name: 'plain', command: 'x', issued: 1 } as unknown as CheckRequest);
  assert.equal(lines.length, 0);
  transport.publish('linux', withSecrets);
  assert.deepEqual(
    lines.map((l) => [l.client, l.namespace]),
    [
      ['local', 'ops'],
      ['web-1', 'ops'],
    ],
  );
});
