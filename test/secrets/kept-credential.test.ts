// A credential sent back as the mask reads show: the stored one is kept only while where it goes is unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CREDENTIAL_MASK, keepCredential } from '../../src/secrets/kept-credential.js';

const token = (given: string, stored: string | undefined) => ({ field: 'spec.client.token', what: 'the vault token', given, stored });

test('a credential given in full is stored as given, whatever changed', () => {
  assert.deepEqual(keepCredential(token('s.new', 's.old'), [{ field: 'spec.client.address', before: 'https://a', after: 'https://b' }]), {
    value: 's.new',
  });
});

test('the mask keeps the stored credential while every destination is unchanged (absent, null and empty alike)', () => {
  assert.equal(CREDENTIAL_MASK, 'REDACTED');
  const targets = [
    { field: 'spec.client.address', before: 'https://vault:8200', after: 'https://vault:8200' },
    { field: 'spec.client.tls.ca_cert', before: undefined, after: '' },
    { field: 'spec.client.tls.server_name', before: null, after: undefined },
    { field: 'spec.client.port', before: 8200, after: '8200' },
  ];
  assert.deepEqual(keepCredential(token('REDACTED', 's.stored'), targets), { value: 's.stored' });
});

test('the mask with nothing stored is refused, asking for the credential', () => {
  assert.deepEqual(keepCredential(token('REDACTED', undefined), []), {
    problem: 'spec.client.token is REDACTED, as reads show it, but none is stored: give the vault token',
  });
});

test('the mask is refused once a destination changed, naming the first that did', () => {
  const targets = [
    { field: 'spec.client.address', before: 'https://a', after: 'https://a' },
    { field: 'spec.client.tls.ca_cert', before: '/etc/ca.pem', after: undefined },
    { field: 'spec.client.tls.server_name', before: 'x', after: 'y' },
  ];
  assert.deepEqual(keepCredential(token('REDACTED', 's.stored'), targets), {
    problem: 'spec.client.token is REDACTED but spec.client.tls.ca_cert changed (from "/etc/ca.pem" to ""): give the vault token for the new target',
  });
});

test("a destination's own comparison decides whether it changed", () => {
  const sameHost = (a: unknown, b: unknown) => new URL(String(a)).host === new URL(String(b)).host;
  const targets = [{ field: 'spec.client.address', before: 'https://vault:8200/', after: 'https://VAULT:8200', same: sameHost }];
  assert.deepEqual(keepCredential(token('REDACTED', 's.stored'), targets), { value: 's.stored' });
  const moved = [{ ...targets[0]!, after: 'https://evil:8200' }];
  assert.ok('problem' in keepCredential(token('REDACTED', 's.stored'), moved));
});
