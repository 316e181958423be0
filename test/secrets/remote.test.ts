import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretsDeliveryFor } from '../../src/secrets/index.js';

test('secrets go to a remote client or agent only over mutual TLS; the in-process client always has them', () => {
  assert.deepEqual(secretsDeliveryFor({ local: true, tls: false, verifiedClientCertificate: false }), { send: true });
  assert.deepEqual(secretsDeliveryFor({ local: false, tls: true, verifiedClientCertificate: true }), { send: true });
  assert.deepEqual(secretsDeliveryFor({ local: false, tls: false, verifiedClientCertificate: false }), {
    send: false,
    reason: 'not connected over TLS: secrets are sent only over mutual TLS',
  });
  assert.deepEqual(secretsDeliveryFor({ local: false, tls: true, verifiedClientCertificate: false }), {
    send: false,
    reason: 'no verified client certificate: secrets are sent only over mutual TLS',
  });
});
