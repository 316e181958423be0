// The bridge settings block: off without a url, flags over environment over the block, defaults, and TLS files read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { bridgeConfigOf } from '../../src/bridge/config.js';
import { CheckbridgeError } from '../../src/errors.js';
import { makeTree, removeTree } from '../helpers/tree.js';

test('without a url anywhere the bridge is off', () => {
  assert.equal(bridgeConfigOf(undefined, {}, {}), null);
  assert.equal(bridgeConfigOf({ api_key: 'k' }, {}, {}), null);
});

test('the block alone gives the url without trailing slashes and the defaults', () => {
  assert.deepEqual(bridgeConfigOf({ url: 'https://backend:8080//', api_key: 'key' }, {}, {}), {
    url: 'https://backend:8080',
    apiKey: 'key',
    namespace: 'default',
    timeout: 10,
    concurrency: 8,
  });
});

test('flags win over the environment, which wins over the block', () => {
  const block = { url: 'http://block', api_key: 'block-key', namespace: 'ops', timeout: 3, concurrency: 2 };
  const env = { CHECKBRIDGE_BRIDGE_URL: 'http://env', CHECKBRIDGE_BRIDGE_API_KEY: 'env-key' };
  const fromEnv = bridgeConfigOf(block, {}, env);
  assert.deepEqual([fromEnv?.url, fromEnv?.apiKey, fromEnv?.namespace, fromEnv?.timeout, fromEnv?.concurrency], ['http://env', 'env-key', 'ops', 3, 2]);
  const fromFlags = bridgeConfigOf(block, { bridgeUrl: 'http://flag', bridgeApiKey: 'flag-key' }, env);
  assert.deepEqual([fromFlags?.url, fromFlags?.apiKey], ['http://flag', 'flag-key']);
});

test('a timeout or concurrency that is not a positive number falls back to its default', () => {
  const config = bridgeConfigOf({ url: 'http://b', api_key: 'k', timeout: -1, concurrency: 2.5 }, {}, {});
  assert.deepEqual([config?.timeout, config?.concurrency], [10, 8]);
});

test('a url without an api key is a usage error naming where a key may come from', () => {
  assert.throws(
    () => bridgeConfigOf({ url: 'http://b' }, {}, {}),
    (error: unknown) => error instanceof CheckbridgeError && error.code === 'CB_CLI_USAGE' && /an api_key is required with a url/.test(error.message),
  );
});

test('the TLS files are read; a missing one is a usage error naming the setting and its path', (t) => {
  const dir = makeTree({ 'ca.pem': 'CA', 'cert.pem': 'CERT' });
  t.after(() => removeTree(dir));
  const config = bridgeConfigOf({ url: 'https://b', api_key: 'k', tls: { ca_cert: join(dir, 'ca.pem'), client_cert: join(dir, 'cert.pem') } }, {}, {});
  assert.deepEqual([config?.tls?.ca?.toString(), config?.tls?.cert?.toString(), config?.tls?.key], ['CA', 'CERT', undefined]);
  const missing = join(dir, 'absent.pem');
  assert.throws(
    () => bridgeConfigOf({ url: 'https://b', api_key: 'k', tls: { client_key: missing } }, {}, {}),
    (error: unknown) => error instanceof CheckbridgeError && error.message.endsWith(`bridge tls client_key ${missing}: ENOENT`),
  );
});
