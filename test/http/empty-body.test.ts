import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropEmptyBodyType } from '../../src/http/empty-body.js';

const typed = (more: Record<string, string>) => ({ 'content-type': 'application/json', ...more });

test('a request without a body loses its Content-Type: no length, or a length of 0', () => {
  for (const headers of [typed({}), typed({ 'content-length': '0' })]) {
    const seen: Record<string, string | undefined> = { ...headers };
    dropEmptyBodyType(seen);
    assert.equal(seen['content-type'], undefined, JSON.stringify(headers));
  }
});

test('a request with a body, or one chunked, keeps its Content-Type', () => {
  for (const headers of [typed({ 'content-length': '2' }), typed({ 'transfer-encoding': 'chunked' })]) {
    const seen: Record<string, string | undefined> = { ...headers };
    dropEmptyBodyType(seen);
    assert.equal(seen['content-type'], 'application/json', JSON.stringify(headers));
  }
});
