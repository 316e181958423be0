// TLS to RabbitMQ and Redis verifies the broker's certificate (system CAs plus a configured CA file);
// `insecure: true` opts out, with a warning. A plain TLS server on 127.0.0.1 stands in for the broker: what it sees
// of the handshake is what our real transport code decided.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type TLSSocket } from 'node:tls';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { makeCa, opensslMissing } from '../servers/openssl-ca.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { eventually } from '../helpers/instance.js';
import { rabbitEndpoints } from '../../src/transport/rabbitmq/settings.js';
import { redisOptions } from '../../src/transport/redis/settings.js';
import { RabbitTransport } from '../../src/transport/rabbitmq/transport.js';
import { RedisTransport } from '../../src/transport/redis/transport.js';

interface StandIn {
  readonly port: number;
  /** Handshakes the client completed (it accepted our certificate). */
  readonly accepted: () => number;
  /** Handshakes the client broke off. */
  readonly refused: () => number;
  close(): Promise<void>;
}

/** A TLS server on 127.0.0.1 with a certificate our test CA signed for 127.0.0.1; it completes handshakes and says nothing. */
async function standIn(cert: string, key: string): Promise<StandIn> {
  let accepted = 0;
  let refused = 0;
  const sockets = new Set<TLSSocket>();
  const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => refused++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Outcome = { accepted: number; refused: number; messages: string[]; lines: Record<string, unknown>[] };

type Open = (port: number, logger: ReturnType<typeof capturedLogger>['logger']) => { start(): void; close(): Promise<void> };
const WARN = 40;
const connectionError = (lines: Record<string, unknown>[]) => lines.some((l) => l.msg === 'transport connection error');

/** Starts a transport against a fresh stand-in; waits for the handshake to be completed or broken off (and `until`). */
async function attempt(cert: { cert: string; key: string }, open: Open, until: (lines: Record<string, unknown>[]) => boolean = () => true): Promise<Outcome> {
  const server = await standIn(cert.cert, cert.key);
  const { logger, lines, messages } = capturedLogger();
  const transport = open(server.port, logger);
  try {
    transport.start();
    await eventually(
      async () => server.accepted() + server.refused(),
      (n) => n > 0,
      15_000,
    );
    await eventually(
      async () => until(lines),
      (done) => done,
      15_000,
    );
    return { accepted: server.accepted(), refused: server.refused(), messages: messages(), lines };
  } finally {
    await server.close();
    await transport.close();
  }
}

const skipWithout = (t: { skip(message: string): void }) => {
  const missing = opensslMissing();
  if (missing) t.skip(missing);
  return missing !== null;
};

function makeBroker() {
  const dir = mkdtempSync(join(tmpdir(), 'cb-broker-tls-'));
  const ca = makeCa(dir);
  return { dir, ca: ca.ca, broker: ca.issue('broker', ['IP:127.0.0.1']) };
}

test('rabbitmq ssl: the broker certificate is refused by default, accepted with trusted_ca_file or insecure (logged)', { timeout: 120_000 }, async (t) => {
  if (skipWithout(t)) return;
  const { dir, ca, broker } = makeBroker();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const rabbit =
    (ssl: unknown): Open =>
    (port, logger) =>
      new RabbitTransport(rabbitEndpoints({ host: '127.0.0.1', port, ssl, timeout: 5 }), 'q-1.9.0-1', logger);

  const byDefault = await attempt(broker, rabbit(true), connectionError);
  assert.deepEqual([byDefault.accepted, byDefault.refused > 0], [0, true], 'the client broke the handshake off');
  const failure = byDefault.lines.find((l) => l.msg === 'transport connection error');
  assert.match(String(failure?.error), /certificate/i, JSON.stringify(byDefault.lines));
  assert.ok(!byDefault.messages.some((m) => /does not verify/.test(m)));

  const withCa = await attempt(broker, rabbit({ trusted_ca_file: ca }));
  assert.equal(withCa.accepted, 1);
  assert.ok(!withCa.messages.some((m) => /does not verify/.test(m)), 'verified: no warning');

  const insecure = await attempt(broker, rabbit({ insecure: true }));
  assert.equal(insecure.accepted, 1);
  const warning = insecure.lines.find((l) => /does not verify its certificate/.test(String(l.msg)));
  assert.equal(warning?.level, WARN);
  assert.equal(warning?.setting, 'rabbitmq.ssl.insecure');

  // amqps:// verifies against the system CAs: the test CA is not among them.
  const [url] = rabbitEndpoints('amqps://broker.example');
  assert.equal(url!.socket.rejectUnauthorized, true);
  assert.ok(Array.isArray(url!.socket.ca) && url!.socket.ca.length > 100, 'Node and system CAs');
  assert.throws(
    () => rabbitEndpoints({ ssl: { trusted_ca_file: join(dir, 'missing.pem') } }),
    /rabbitmq\.ssl\.trusted_ca_file: cannot read .*missing\.pem \(ENOENT\)/,
  );
  assert.throws(() => rabbitEndpoints({ ssl: { insecure: 'yes' } }), /rabbitmq\.ssl\.insecure must be true or false/);
  // Legacy's client certificate keys, beside the verification.
  const [client] = rabbitEndpoints({ ssl: { cert_chain_file: broker.cert, private_key_file: broker.key, trusted_ca_file: ca } });
  assert.ok(Buffer.isBuffer(client!.socket.cert) && Buffer.isBuffer(client!.socket.key) && client!.socket.rejectUnauthorized === true);
});

test('redis tls: the server certificate is refused by default, accepted with trusted_ca_file or insecure (logged)', { timeout: 120_000 }, async (t) => {
  if (skipWithout(t)) return;
  const { dir, ca, broker } = makeBroker();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const redis =
    (tls: unknown): Open =>
    (port, logger) =>
      new RedisTransport(redisOptions({ host: '127.0.0.1', port, tls }), logger);

  const byDefault = await attempt(broker, redis(true), connectionError);
  assert.deepEqual([byDefault.accepted, byDefault.refused > 0], [0, true], 'the client broke the handshake off');
  const failure = byDefault.lines.find((l) => l.msg === 'transport connection error');
  assert.match(String(failure?.error), /certificate/i);

  const withCa = await attempt(broker, redis({ trusted_ca_file: ca }));
  assert.ok(withCa.accepted >= 1);

  // The legacy `ssl` spelling takes the same keys.
  const insecure = await attempt(broker, (port, logger) => new RedisTransport(redisOptions({ host: '127.0.0.1', port, ssl: { insecure: true } }), logger));
  assert.ok(insecure.accepted >= 1);
  assert.equal(insecure.lines.find((l) => /does not verify its certificate/.test(String(l.msg)))?.level, WARN);

  assert.equal(redisOptions('rediss://cache.example').options.tls?.rejectUnauthorized, true);
  assert.throws(() => redisOptions({ tls: { trusted_ca_file: join(dir, 'missing.pem') } }), /redis\.tls\.trusted_ca_file: cannot read/);
  const client = redisOptions({ ssl: { cert_chain_file: broker.cert, private_key_file: broker.key } }).options.tls;
  assert.ok(Buffer.isBuffer(client?.cert) && Buffer.isBuffer(client?.key) && client?.rejectUnauthorized === true);
});
