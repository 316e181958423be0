// Downloading one asset archive: only http(s), the server's status, the size bound before and while reading, the
// sha512 of what arrived, and the TLS trust of the configured CA.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChecksumMismatch, dispatcherFor, download } from '../../src/assets/fetch.js';
import { AssetTooLarge } from '../../src/assets/limits.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { startAssetServer, type AssetServer } from '../servers/asset-server.js';
import { sha512 } from '../helpers/archives.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let ca: TestCa;
let stranger: TestCa;
let server: AssetServer;
let dir: string;
const BODY = Buffer.from('x'.repeat(4096));

before(async () => {
  ca = makeTestCa();
  stranger = makeTestCa('a CA nobody trusts here');
  server = await startAssetServer(ca);
  dir = makeTree({});
});

after(async () => {
  await server.close();
  ca.remove();
  stranger.remove();
  removeTree(dir);
});

const build = (path: string, fields: { sha512?: string; headers?: Record<string, string> } = {}) => ({
  url: server.url(path),
  sha512: fields.sha512 ?? sha512(BODY),
  headers: fields.headers ?? {},
});

test('a download that hashes to its sha512 is written whole, with the asset headers sent', async () => {
  server.serve('/with-header.tar.gz', { body: BODY, requireHeader: ['Authorization', 'Bearer t'] });
  const file = join(dir, 'whole');
  await download(build('/with-header.tar.gz', { headers: { Authorization: 'Bearer t' } }), file, dispatcherFor(ca.caFile), 1 << 20);
  assert.deepEqual(readFileSync(file), BODY);
});

test('only http and https URLs are fetched', async () => {
  await assert.rejects(download({ url: 'file:///etc/passwd', sha512: 'a', headers: {} }, join(dir, 'never'), dispatcherFor(ca.caFile), 1 << 20), {
    message: 'url "file:///etc/passwd" is not an http or https URL: not fetched',
  });
  assert.equal(existsSync(join(dir, 'never')), false);
});

test('an answer that is not 2xx is an error naming the status and the URL', async () => {
  const missing = build('/absent.tar.gz');
  await assert.rejects(download(missing, join(dir, 'absent'), dispatcherFor(ca.caFile), 1 << 20), { message: `HTTP 404 from ${missing.url}` });
});

test('a download larger than max_download_bytes is refused as it arrives when no size is announced', async () => {
  server.serve('/chunked.tar.gz', { body: BODY, chunked: true });
  await assert.rejects(
    download(build('/chunked.tar.gz'), join(dir, 'chunked'), dispatcherFor(ca.caFile), 1000),
    (error: unknown) => error instanceof AssetTooLarge && error.message === 'the download exceeds checkbridge.assets.max_download_bytes (1000 bytes)',
  );
});

test('a download announcing more than max_download_bytes is refused before it is read, and nothing is thrown past the refusal', async () => {
  server.serve('/announced.tar.gz', { body: BODY });
  // The runner's own listeners are set aside while the download runs, so what escapes is seen here.
  const runner = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  const escaped: Error[] = [];
  process.on('uncaughtException', (error) => escaped.push(error));
  try {
    await assert.rejects(
      download(build('/announced.tar.gz'), join(dir, 'announced'), dispatcherFor(ca.caFile), 1000),
      (error: unknown) =>
        error instanceof AssetTooLarge && error.message === 'the download (4096 bytes announced) exceeds checkbridge.assets.max_download_bytes (1000 bytes)',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    process.removeAllListeners('uncaughtException');
    for (const listener of runner) process.on('uncaughtException', listener);
  }
  assert.deepEqual(
    escaped.map((error) => error.message),
    [],
  );
});

test('a download that does not match its sha512 (a wrong one, or one cut short) is a checksum mismatch', async () => {
  server.serve('/wrong.tar.gz', { body: BODY });
  await assert.rejects(
    download(build('/wrong.tar.gz', { sha512: 'a'.repeat(128) }), join(dir, 'wrong'), dispatcherFor(ca.caFile), 1 << 20),
    (error: unknown) => {
      assert.ok(error instanceof ChecksumMismatch);
      assert.deepEqual([error.expected, error.actual, error.bytes, error.transport], ['a'.repeat(128), sha512(BODY), 4096, null]);
      return true;
    },
  );
  server.serve('/short.tar.gz', { body: BODY, truncateAt: 100 });
  await assert.rejects(download(build('/short.tar.gz'), join(dir, 'short'), dispatcherFor(ca.caFile), 1 << 20), (error: unknown) => {
    assert.ok(error instanceof ChecksumMismatch);
    assert.ok(error.bytes < 4096 && error.transport !== null, `${error.bytes} bytes, ${String(error.transport)}`);
    assert.match(error.message, /ended early/);
    return true;
  });
});

test('a server certificate no trusted CA signed is refused; one dispatcher is kept per CA file', async () => {
  server.serve('/trusted.tar.gz', { body: BODY });
  assert.equal(dispatcherFor(ca.caFile), dispatcherFor(ca.caFile));
  await assert.rejects(download(build('/trusted.tar.gz'), join(dir, 'stranger'), dispatcherFor(stranger.caFile), 1 << 20), /certificate/i);
});
