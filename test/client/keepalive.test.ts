// The keepalive a client sends: its definition as loaded, socket defaults filled, redacted, with version and timestamp.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepalivePayload } from '../../src/client/keepalive.js';
import { settingsOf } from '../helpers/settings.js';

test('the client definition with the legacy version and a timestamp in seconds', () => {
  const payload = keepalivePayload(settingsOf({ client: { name: 'web-1', address: '10.0.0.1', subscriptions: ['linux'], env: 'prod' } }), 1_700_000_000_999);
  assert.equal(payload.name, 'web-1');
  assert.equal(payload.address, '10.0.0.1');
  assert.deepEqual(payload.subscriptions, ['linux', 'client:web-1'], 'as loaded: with its own subscription');
  assert.equal(payload.env, 'prod');
  assert.equal(payload.version, '1.9.0');
  assert.equal(payload.timestamp, 1_700_000_000);
});

test('configured sockets gain their bind and port defaults; sockets not configured stay absent', () => {
  const payload = keepalivePayload(settingsOf({ client: { name: 'c', socket: { port: 4030 }, http_socket: { bind: '0.0.0.0' } } }), 0);
  assert.deepEqual(payload.socket, { bind: '127.0.0.1', port: 4030 });
  assert.deepEqual(payload.http_socket, { bind: '0.0.0.0', port: 3031 });
  const none = keepalivePayload(settingsOf({ client: { name: 'c' } }), 0);
  assert.equal(Object.hasOwn(none, 'socket'), false);
});

test('secrets are redacted by the default keys and the client’s own list; the signature stays', () => {
  const payload = keepalivePayload(
    settingsOf({ client: { name: 'c', signature: 'sig', redact: ['snmp_community'], snmp_community: 'public', mysql: { password: 'pw', user: 'u' } } }),
    0,
  );
  assert.equal(payload.signature, 'sig');
  assert.equal(payload.snmp_community, 'REDACTED');
  assert.deepEqual(payload.mysql, { password: 'REDACTED', user: 'u' });
});
