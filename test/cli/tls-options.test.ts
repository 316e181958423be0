import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { listenerHttps } from '../../src/cli/tls-options.js';
import { CheckbridgeError } from '../../src/errors.js';
import { makeTestCa } from '../helpers/tls.js';

// One authority and three certificates for the file: each key pair costs openssl a moment.
const ca = makeTestCa();
after(() => ca.remove());
const [a, b, c] = [ca.issue(['a.test']), ca.issue(['b.test']), ca.issue(['c.test'])];

const isUsage = (pattern: RegExp) => (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && pattern.test(error.message);
const isListen = (pattern: RegExp) => (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_LISTEN' && pattern.test(error.message);

test('no certificate anywhere serves plain HTTP', () => {
  assert.equal(listenerHttps('v2 API', 'checkbridge.v2_api.tls', undefined, {}, {}), null);
  assert.equal(listenerHttps('v2 API', 'checkbridge.v2_api.tls', null, {}, {}), null);
  assert.equal(listenerHttps('v2 API', 'checkbridge.v2_api.tls', {}, {}, {}), null);
});

test('the settings block gives certificate and key; a CA file turns on mutual TLS', () => {
  const server = a;
  const plain = listenerHttps('legacy API', 'api.tls', { cert_file: server.certFile, key_file: server.keyFile }, {}, {});
  assert.ok(plain);
  assert.equal(plain.cert.toString(), server.cert);
  assert.equal(plain.key.toString(), server.key);
  assert.equal(plain.ca, undefined);
  assert.equal(plain.requestCert, false);
  assert.equal(plain.rejectUnauthorized, false);
  assert.equal(plain.minVersion, 'TLSv1.2');
  const mutual = listenerHttps('legacy API', 'api.tls', { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile }, {}, {});
  assert.equal(mutual?.ca?.toString(), ca.caPem);
  assert.equal(mutual?.requestCert, true);
  assert.equal(mutual?.rejectUnauthorized, true);
});

test('a flag beats the variable, which beats the settings', () => {
  const configured = { cert_file: c.certFile, key_file: c.keyFile };
  const env = { CHECKBRIDGE_TLS_CERT_FILE: b.certFile, CHECKBRIDGE_TLS_KEY_FILE: b.keyFile };
  assert.equal(listenerHttps('x', 'api.tls', configured, { tlsCertFile: a.certFile, tlsKeyFile: a.keyFile }, env)?.cert.toString(), a.cert);
  assert.equal(listenerHttps('x', 'api.tls', configured, {}, env)?.cert.toString(), b.cert);
  assert.equal(listenerHttps('x', 'api.tls', configured, {}, {})?.cert.toString(), c.cert);
});

test('a certificate without its key, or a malformed settings block, is a usage error naming the block', () => {
  assert.throws(
    () => listenerHttps('agent API', 'client.http_socket.tls', { cert_file: '/x.pem' }, {}, {}),
    isUsage(/agent API TLS needs both a certificate and its key \(client\.http_socket\.tls\.cert_file and key_file, or --tls-cert-file and --tls-key-file\)/),
  );
  assert.throws(() => listenerHttps('x', 'api.tls', {}, { tlsCaFile: '/ca.pem' }, {}), isUsage(/needs both a certificate and its key/));
  assert.throws(() => listenerHttps('x', 'api.tls', 'cert.pem', {}, {}), isUsage(/api\.tls must be a hash of cert_file, key_file, ca_file/));
  assert.throws(() => listenerHttps('x', 'api.tls', ['a'], {}, {}), isUsage(/api\.tls must be a hash/));
  assert.throws(() => listenerHttps('x', 'api.tls', { cert_file: '', key_file: 'k' }, {}, {}), isUsage(/api\.tls\.cert_file must be a file name/));
  assert.throws(() => listenerHttps('x', 'api.tls', { key_file: 3 }, {}, {}), isUsage(/api\.tls\.key_file must be a file name/));
});

test('an unreadable file or a key that does not match fails to listen, naming the file', () => {
  const [one, two] = [a, b];
  const missing = join(ca.dir, 'absent.pem');
  assert.throws(
    () => listenerHttps('v2 API', 'v', { cert_file: missing, key_file: one.keyFile }, {}, {}),
    isListen(new RegExp(`v2 API TLS cert_file ${missing}: ENOENT`)),
  );
  assert.throws(
    () => listenerHttps('v2 API', 'v', { cert_file: one.certFile, key_file: one.keyFile, ca_file: missing }, {}, {}),
    isListen(/TLS ca_file .*: ENOENT/),
  );
  assert.throws(
    () => listenerHttps('v2 API', 'v', { cert_file: one.certFile, key_file: two.keyFile }, {}, {}),
    isListen(new RegExp(`^cannot listen: v2 API TLS: .+ \\(${one.certFile}, ${two.keyFile}\\)$`)),
  );
  const garbage = join(ca.dir, 'garbage.pem');
  writeFileSync(garbage, 'not a certificate');
  assert.throws(() => listenerHttps('v2 API', 'v', { cert_file: garbage, key_file: one.keyFile }, {}, {}), isListen(/v2 API TLS: /));
});
