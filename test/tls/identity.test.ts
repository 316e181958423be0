// A server certificate's host check as Go's peers do it (no common-name fallback), and what a failed connection logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PeerCertificate } from 'node:tls';
import { checkServerIdentity, connectFailureText } from '../../src/tls/identity.js';

const cert = (fields: { CN?: string | string[]; subjectaltname?: string }) =>
  ({ subject: fields.CN === undefined ? {} : { CN: fields.CN }, subjectaltname: fields.subjectaltname }) as unknown as PeerCertificate;

const LEGACY = 'x509: certificate relies on legacy Common Name field, use SANs instead';

test('a certificate naming its host only in the common name is refused with Go’s words', () => {
  const error = checkServerIdentity('db.example', cert({ CN: 'db.example' }));
  assert.ok(error);
  assert.equal((error as Error & { code: string }).code, 'ERR_TLS_CERT_LEGACY_COMMON_NAME');
  assert.equal(error.message, `${LEGACY} (the certificate of db.example has the common name "db.example" and no subject alternative names)`);
  assert.match(checkServerIdentity('h', cert({ CN: ['first', 'second'] }))!.message, /common name "first"/);
});

test('subject alternative names are checked as Node checks them', () => {
  assert.equal(checkServerIdentity('db.example', cert({ CN: 'other', subjectaltname: 'DNS:db.example' })), undefined);
  assert.equal(checkServerIdentity('a.db.example', cert({ subjectaltname: 'DNS:*.db.example' })), undefined);
  const mismatch = checkServerIdentity('evil.example', cert({ subjectaltname: 'DNS:db.example' }));
  assert.equal((mismatch as Error & { code: string }).code, 'ERR_TLS_CERT_ALTNAME_INVALID');
  assert.equal((checkServerIdentity('h', cert({})) as Error & { code: string }).code, 'ERR_TLS_CERT_ALTNAME_INVALID', 'no names at all');
});

test('a failed connection is logged by its code, or the legacy-common-name message in full', () => {
  const legacy = checkServerIdentity('h', cert({ CN: 'h' }))!;
  assert.equal(connectFailureText(legacy), legacy.message);
  assert.equal(connectFailureText(new Error('wrapped', { cause: legacy })), legacy.message);
  assert.equal(connectFailureText(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), 'ECONNREFUSED');
  assert.equal(connectFailureText(new Error('outer', { cause: Object.assign(new Error('x'), { code: 'ETIMEDOUT' }) })), 'ETIMEDOUT');
  assert.equal(connectFailureText(new Error('no code')), 'no code');
  assert.equal(connectFailureText('a string'), 'a string');
});
