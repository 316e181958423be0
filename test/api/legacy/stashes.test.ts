import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson as get, postJson as post, eventually } from '../../helpers/instance.js';

test('stashes: create with and without expire, paths with slashes and encoded spaces, HEAD, list, delete, 400s', async (t) => {
  const { api } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'local', address: '127.0.0.1', subscriptions: [] } } });
  assert.deepEqual((await post(`${api}/stashes`, { path: 'tester', content: { key: 'value' } })).body, { path: 'tester' });
  assert.equal((await post(`${api}/stashes`, { content: {} })).status, 400, 'missing path');
  assert.equal((await post(`${api}/stashes`, { path: 'x', content: 'text' })).status, 400, 'content must be an object');
  assert.equal((await post(`${api}/stashes`, 'not json')).status, 400);

  const nested = await post(`${api}/stash/silence/i-424242/tokens`, { reason: 'testing' });
  assert.equal(nested.status, 201);
  assert.deepEqual(nested.body, { path: 'silence/i-424242/tokens' });
  assert.deepEqual((await post(`${api}/stashes/foo%20bar`, { a: 1 })).body, { path: 'foo bar' });
  assert.equal((await post(`${api}/stash/arr`, [1, 2])).status, 400, 'a stash is a JSON object');

  assert.deepEqual((await get(`${api}/stash/silence/i-424242/tokens`)).body, { reason: 'testing' });
  assert.deepEqual((await get(`${api}/stashes/tester`)).body, { key: 'value' });
  assert.equal((await fetch(`${api}/stash/tester`, { method: 'HEAD' })).status, 200);
  assert.equal((await fetch(`${api}/stash/absent`, { method: 'HEAD' })).status, 404);

  // Made just before the listing, with seconds to spare: a loaded machine must not expire it first.
  assert.equal((await post(`${api}/stashes`, { path: 'brief', content: {}, expire: 5 })).status, 201);
  const listed = (await get(`${api}/stashes`)).body as { path: string; content: unknown; expire: number }[];
  assert.deepEqual(listed.map((s) => s.path).sort(), ['brief', 'foo bar', 'silence/i-424242/tokens', 'tester']);
  assert.equal(listed.find((s) => s.path === 'tester')!.expire, -1);
  assert.ok(listed.find((s) => s.path === 'brief')!.expire <= 5);
  const expired = await eventually(
    () => get(`${api}/stashes/brief`),
    (r) => r.status === 404,
    30_000,
  );
  assert.equal(expired.status, 404, 'expired');

  assert.equal((await fetch(`${api}/stash/tester`, { method: 'DELETE' })).status, 204);
  assert.equal((await fetch(`${api}/stash/tester`, { method: 'DELETE' })).status, 404);
  assert.equal((await get(`${api}/stash/tester`)).status, 404);
});
