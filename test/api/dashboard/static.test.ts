import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join, sep } from 'node:path';
import Fastify from 'fastify';
import { registerStatic, DEFAULT_WEB_ROOT } from '../../../src/api/dashboard/static.js';
import { makeTree, removeTree, writeTree } from '../../helpers/tree.js';

const CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'";

// A fastify instance serving a built front end from a temporary directory of `files`.
async function served(t: TestContext, files: Record<string, string>) {
  const root = makeTree(files);
  const app = Fastify({ logger: false });
  registerStatic(app, root);
  t.after(async () => {
    await app.close();
    removeTree(root);
  });
  return { app, root };
}

const BUILT = {
  'index.html': '<!doctype html><script src="/assets/app-1a2b.js"></script>',
  'assets/app-1a2b.js': 'console.log(1)',
  'assets/style-9f.css': 'body{}',
  'assets/logo.svg': '<svg/>',
  'assets/data.bin': 'x',
};

test('the page is served at / with no-cache, nosniff and the content security policy', async (t) => {
  const { app } = await served(t, BUILT);
  const page = await app.inject('/');
  assert.equal(page.statusCode, 200);
  assert.equal(page.payload, BUILT['index.html']);
  assert.deepEqual(
    ['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy'].map((h) => page.headers[h]),
    ['text/html; charset=utf-8', 'no-cache', 'nosniff', CSP],
  );
});

test('assets are served with their type and cached for good; an unknown extension is an octet stream', async (t) => {
  const { app } = await served(t, BUILT);
  const expected: Record<string, string> = {
    'app-1a2b.js': 'text/javascript; charset=utf-8',
    'style-9f.css': 'text/css; charset=utf-8',
    'logo.svg': 'image/svg+xml',
    'data.bin': 'application/octet-stream',
  };
  for (const [file, type] of Object.entries(expected)) {
    const asset = await app.inject(`/assets/${file}`);
    assert.deepEqual(
      [asset.statusCode, asset.headers['content-type'], asset.headers['cache-control']],
      [200, type, 'public, max-age=31536000, immutable'],
      file,
    );
    assert.equal(asset.payload, BUILT[`assets/${file}` as keyof typeof BUILT]);
  }
});

test('a missing asset is a plain 404; nothing outside the assets directory is reachable', async (t) => {
  const { app } = await served(t, BUILT);
  for (const url of ['/assets/missing.js', '/assets/..%2Findex.html', '/assets/%2E%2E%2Findex.html']) {
    const answer = await app.inject(url);
    assert.deepEqual([answer.statusCode, answer.headers['content-type'], answer.payload], [404, 'text/plain; charset=utf-8', 'not found\n'], url);
  }
});

test('the files are read once at start: a file added later is not served', async (t) => {
  const { app, root } = await served(t, BUILT);
  writeTree(root, { 'assets/late.js': 'late' });
  assert.equal((await app.inject('/assets/late.js')).statusCode, 404);
});

test('without a build, / says how to build it and there are no assets', async (t) => {
  const { app } = await served(t, {});
  const page = await app.inject('/');
  assert.deepEqual(
    [page.statusCode, page.headers['content-type'], page.payload],
    [404, 'text/plain; charset=utf-8', 'the dashboard is not built: run npm run build\n'],
  );
  assert.equal((await app.inject('/assets/app.js')).statusCode, 404);
});

test('the default web root is dist/web beside the compiled server', () => {
  assert.ok(DEFAULT_WEB_ROOT.endsWith(`${sep}dist${sep}web`), DEFAULT_WEB_ROOT);
  assert.equal(join(DEFAULT_WEB_ROOT, '..', 'src', 'api', 'dashboard'), join(import.meta.dirname, '..', '..', '..', 'src', 'api', 'dashboard'));
});
