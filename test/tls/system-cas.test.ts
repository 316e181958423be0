// The system CA store is shared by every outgoing TLS client (assets and the vault), so
// it lives with the TLS modules rather than in assets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { makeTree, removeTree } from '../helpers/tree.js';
import { makeTestCa } from '../helpers/tls.js';
import { systemCas } from '../../src/tls/system-cas.js';

test("systemCas: Node's bundled CAs plus the store SSL_CERT_FILE names", (t) => {
  const ca = makeTestCa('a CA only the system store holds');
  const root = makeTree({ 'bundle.pem': ca.caPem });
  const saved = process.env.SSL_CERT_FILE;
  t.after(() => {
    if (saved === undefined) delete process.env.SSL_CERT_FILE;
    else process.env.SSL_CERT_FILE = saved;
    removeTree(root);
    ca.remove();
  });
  process.env.SSL_CERT_FILE = join(root, 'bundle.pem');
  const cas = systemCas();
  assert.deepEqual(cas.slice(0, rootCertificates.length), [...rootCertificates]);
  assert.ok(cas.includes(ca.caPem), "the system store's CA is trusted");
});
