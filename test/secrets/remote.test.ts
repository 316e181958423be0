import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretsDeliveryFor, WithheldSecretsLog } from '../../src/secrets/remote.js';
import { capturedLogger } from '../helpers/log-capture.js';

test('remote clients get secrets only over mutual TLS; the local client role always does', () => {
  assert.deepEqual(secretsDeliveryFor({ local: true, tls: false, verifiedClientCertificate: false }), { send: true });
  assert.deepEqual(secretsDeliveryFor({ local: false, tls: true, verifiedClientCertificate: true }), { send: true });
  const plain = secretsDeliveryFor({ local: false, tls: false, verifiedClientCertificate: false });
  assert.equal(plain.send, false);
  assert.match((plain as { reason: string }).reason, /not connected over TLS/);
  const oneWay = secretsDeliveryFor({ local: false, tls: true, verifiedClientCertificate: false });
  assert.equal(oneWay.send, false);
  assert.match((oneWay as { reason: string }).reason, /did not present a verified certificate/);
});

test('a check that runs without its secrets is logged once per check, with the reason', () => {
  const { logger, lines } = capturedLogger();
  const log = new WithheldSecretsLog(logger);
  assert.equal(log.note('db-check', 'remote-1', 'the client is not connected over TLS'), true);
  assert.equal(log.note('db-check', 'remote-2', 'the client is not connected over TLS'), false);
  assert.equal(log.note('mq-check', 'remote-1', 'no client certificate'), true);
  assert.deepEqual(lines.map((l) => [l.msg, l.check, l.client, l.reason]), [
    ['check runs without its secrets', 'db-check', 'remote-1', 'the client is not connected over TLS'],
    ['check runs without its secrets', 'mq-check', 'remote-1', 'no client certificate'],
  ]);
});
