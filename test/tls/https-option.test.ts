// One HTTP listener's TLS as fastify's `https` option: present with TLS, absent for plain HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpsOption } from '../../src/tls/https-option.js';

test('a listener with TLS gets its options under `https`; one without gets none', () => {
  const https = { cert: Buffer.from('c'), key: Buffer.from('k'), requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' as const };
  assert.deepEqual(httpsOption(https), { https });
  assert.equal((httpsOption(https) as { https: unknown }).https, https);
  assert.deepEqual(httpsOption(null), {});
  assert.deepEqual(httpsOption(undefined), {});
});
