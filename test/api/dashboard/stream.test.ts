import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerStream } from '../../../src/api/dashboard/stream.js';

const STREAM = '/api/checkbridge/v1/stream';

// A listening fastify instance with the stream alone; `changed` announces a change.
async function streaming(t: TestContext) {
  const app = Fastify({ logger: false });
  const changed = registerStream(app);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => app.close());
  return { app, base, changed };
}

// Each test is bounded: a change that never comes fails it rather than holding the suite.
// An open page: what it has read so far, and a wait for the text to hold something.
async function open(base: string) {
  const response = await fetch(`${base}${STREAM}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let ended = false;
  const readUntil = async (ok: (text: string) => boolean) => {
    while (!ok(text) && !ended) {
      const { value, done } = await reader.read();
      if (done) ended = true;
      else text += value;
    }
    return text;
  };
  return { response, readUntil, ended: () => ended, cancel: () => reader.cancel() };
}

test('a page is greeted with the current generation and the retry delay, as an uncached event stream', { timeout: 30_000 }, async (t) => {
  const { base } = await streaming(t);
  const page = await open(base);
  assert.equal(page.response.status, 200);
  assert.deepEqual(
    ['content-type', 'cache-control', 'x-content-type-options'].map((h) => page.response.headers.get(h)),
    ['text/event-stream; charset=utf-8', 'no-store', 'nosniff'],
  );
  assert.equal(await page.readUntil((text) => text.endsWith('\n\n')), 'retry: 2000\nevent: hello\ndata: {"generation":0}\n\n');
  await page.cancel();
});

test('changes close together reach every open page as one change event with the latest generation', { timeout: 30_000 }, async (t) => {
  const { base, changed } = await streaming(t);
  const pages = [await open(base), await open(base)];
  for (const page of pages) await page.readUntil((text) => text.includes('event: hello'));
  changed();
  changed();
  changed();
  for (const page of pages) {
    const text = await page.readUntil((seen) => seen.includes('event: change'));
    assert.equal(text.split('event: change').length - 1, 1, 'one event for the three changes');
    assert.match(text, /event: change\ndata: \{"generation":3\}\n\n$/);
  }
  const late = await open(base);
  assert.match(await late.readUntil((text) => text.endsWith('\n\n')), /data: \{"generation":3\}/, 'a new page starts from the latest generation');
  for (const page of [...pages, late]) await page.cancel();
});

test('closing the server ends every open stream', { timeout: 30_000 }, async (t) => {
  const { app, base } = await streaming(t);
  const page = await open(base);
  await page.readUntil((text) => text.includes('event: hello'));
  await app.close();
  await page.readUntil(() => false);
  assert.equal(page.ended(), true);
});
