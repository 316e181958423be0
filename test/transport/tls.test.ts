// TLS to a broker from its `ssl`/`tls` hash: verified against the trusted CAs by default, a client certificate when
// given, `insecure: true` to turn verification off; every bad setting refused with its name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerTls, INSECURE_TLS_WARNING } from '../../src/transport/tls.js';
import { checkServerIdentity, trustedCas } from '../../src/tls/index.js';
import { CheckbridgeError } from '../../src/errors.js';

function files(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cb-broker-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of [
    ['ca.pem', 'MY CA'],
    ['cert.pem', 'CERT'],
    ['key.pem', 'KEY'],
  ])
    writeFileSync(join(dir, name!), text!);
  return (name: string) => join(dir, name);
}

const refused = (message: string) => (error: unknown) => {
  assert.ok(error instanceof CheckbridgeError);
  assert.equal(error.code, 'CB_CONFIG_REFUSED');
  assert.equal(error.message, `refusing to start with invalid configuration: ${message}`);
  return true;
};

test('by default the broker is verified against the trusted CAs and must name the host among its SANs', () => {
  const tls = brokerTls({}, 'rabbitmq.ssl');
  assert.equal(tls.insecure, false);
  assert.equal(tls.options.rejectUnauthorized, true);
  assert.deepEqual(tls.options.ca, trustedCas());
  assert.equal(tls.options.checkServerIdentity, checkServerIdentity);
  assert.equal(tls.options.cert, undefined);
});

test('a client certificate and a CA file of its own', (t) => {
  const path = files(t);
  const tls = brokerTls({ cert_chain_file: path('cert.pem'), private_key_file: path('key.pem'), trusted_ca_file: path('ca.pem') }, 'rabbitmq.ssl');
  assert.equal(String(tls.options.cert), 'CERT');
  assert.equal(String(tls.options.key), 'KEY');
  assert.equal((tls.options.ca as string[]).at(-1), 'MY CA');
});

test('insecure: true turns verification off and keeps the client certificate', (t) => {
  const path = files(t);
  const tls = brokerTls({ insecure: true, cert_chain_file: path('cert.pem') }, 'redis.tls');
  assert.equal(tls.insecure, true);
  assert.deepEqual(Object.keys(tls.options).sort(), ['cert', 'rejectUnauthorized']);
  assert.equal(tls.options.rejectUnauthorized, false);
  assert.match(INSECURE_TLS_WARNING, /does not verify its certificate \(insecure: true\)/);
  assert.equal(brokerTls({ insecure: false }, 'redis.tls').insecure, false);
});

test('bad settings are refused, naming where they are', (t) => {
  const path = files(t);
  assert.throws(() => brokerTls({ insecure: 'yes' }, 'rabbitmq.ssl'), refused('rabbitmq.ssl.insecure must be true or false, not "yes"'));
  assert.throws(() => brokerTls({ cert_chain_file: '' }, 'rabbitmq.ssl'), refused('rabbitmq.ssl.cert_chain_file must be the path of a PEM file'));
  assert.throws(() => brokerTls({ private_key_file: 7 }, 'redis.tls'), refused('redis.tls.private_key_file must be the path of a PEM file'));
  const missing = path('absent.pem');
  assert.throws(() => brokerTls({ trusted_ca_file: missing }, 'redis.tls'), refused(`redis.tls.trusted_ca_file: cannot read ${missing} (ENOENT)`));
  assert.throws(() => brokerTls({ cert_chain_file: path('') }, 'rabbitmq.ssl'), refused(`rabbitmq.ssl.cert_chain_file: cannot read ${path('')} (EISDIR)`));
});
