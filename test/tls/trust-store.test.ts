// What a TLS client trusts: Node's CAs, the system's, and a configured CA file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { trustedCas } from '../../src/tls/trust-store.js';

test("Node's own CAs are kept, with a configured CA file last", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-trust-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'ca.pem'), 'MY CA');
  const without = trustedCas();
  for (const ca of rootCertificates) assert.ok(without.includes(ca));
  const withFile = trustedCas(join(dir, 'ca.pem'));
  assert.deepEqual(withFile, [...without, 'MY CA']);
});

test('a CA file that cannot be read throws for the caller to name', () => {
  assert.throws(() => trustedCas('/nonexistent/ca.pem'), { code: 'ENOENT' });
});
