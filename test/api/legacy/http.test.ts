import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { forbid, issued, legacyQuery, refuse, sendList } from '../../../src/api/legacy/http.js';

const ITEMS = [
  { name: 'web-1', address: '10.0.0.1', tags: { tier: 'front' }, subscriptions: ['web'], password: 'hunter2', port: 80 },
  { name: 'web-2', address: '10.0.0.2', tags: { tier: 'front' }, subscriptions: ['web', 'linux'], port: 81 },
  { name: 'db-1', address: '10.0.0.3', tags: { tier: 'back' }, subscriptions: [], port: 5432, keepalives: false },
];

// A bare fastify instance whose routes answer through the helpers under test.
async function app(t: TestContext) {
  const app = Fastify({ logger: false });
  app.get('/list', (req, reply) => sendList(req, reply, ITEMS));
  app.get('/refuse', (req, reply) => refuse(reply, String((req.query as { why?: string }).why)));
  app.get('/forbid', (_req, reply) => forbid(reply, 'not for you'));
  t.after(() => app.close());
  await app.ready();
  return app;
}

const names = (payload: string) => (JSON.parse(payload) as { name: string }[]).map((item) => item.name);

test('legacyQuery: splits on & and the first =, keeps values URL-encoded, and is empty without a query', () => {
  assert.deepEqual(legacyQuery('/clients?limit=2&offset=1&filter.a=b=c&flag&&x=%20'), { limit: '2', offset: '1', 'filter.a': 'b=c', flag: '', x: '%20' });
  assert.deepEqual(legacyQuery('/clients'), {});
  assert.deepEqual(legacyQuery('/clients?'), {});
});

test('issued: the clock in whole seconds', () => {
  assert.deepEqual(issued({ now: () => 1_700_000_000_999 }), { issued: 1_700_000_000 });
});

test('sendList: filter.<dot.path> keeps the items whose value equals the text, other values by their text', async (t) => {
  const api = await app(t);
  assert.deepEqual(names((await api.inject('/list?filter.tags.tier=front')).payload), ['web-1', 'web-2']);
  assert.deepEqual(names((await api.inject('/list?filter.port=5432')).payload), ['db-1'], 'a number matches its text');
  assert.deepEqual(names((await api.inject('/list?filter.keepalives=false')).payload), ['db-1'], 'a boolean matches its text');
  assert.deepEqual(names((await api.inject('/list?filter.tags.tier=front&filter.name=web-2')).payload), ['web-2'], 'filters add up');
  assert.deepEqual(names((await api.inject('/list?filter.missing.deep=x')).payload), []);
});

test('sendList: a filter reads the redacted item, so it cannot confirm a guessed secret', async (t) => {
  const api = await app(t);
  assert.deepEqual(names((await api.inject('/list?filter.password=hunter2')).payload), []);
  assert.deepEqual(names((await api.inject('/list?filter.password=REDACTED')).payload), ['web-1']);
});

test('sendList: limit and offset page the filtered list and X-Pagination names the total; without limit there is no header', async (t) => {
  const api = await app(t);
  const page = await api.inject('/list?limit=1&offset=1');
  assert.deepEqual(names(page.payload), ['web-2']);
  assert.deepEqual(JSON.parse(String(page.headers['x-pagination'])), { limit: 1, offset: 1, total: 3 });
  const filtered = await api.inject('/list?filter.tags.tier=front&limit=5');
  assert.deepEqual(JSON.parse(String(filtered.headers['x-pagination'])), { limit: 5, offset: 0, total: 2 });
  const bad = await api.inject('/list?limit=-1&offset=1');
  assert.deepEqual(names(bad.payload), ['web-1', 'web-2', 'db-1'], 'a limit that is not a whole number is ignored');
  assert.equal(bad.headers['x-pagination'], undefined);
});

test('refuse: 400 with an empty body and the reason in printable ASCII, at most 512 characters, in X-Checkbridge-Error', async (t) => {
  const api = await app(t);
  const plain = await api.inject('/refuse?why=name+is+too+long');
  assert.deepEqual([plain.statusCode, plain.payload, plain.headers['x-checkbridge-error']], [400, '', 'name is too long']);
  const unicode = await api.inject(`/refuse?why=${encodeURIComponent('café\tok')}`);
  assert.equal(unicode.headers['x-checkbridge-error'], 'caf??ok');
  const long = await api.inject(`/refuse?why=${'x'.repeat(600)}`);
  assert.equal(String(long.headers['x-checkbridge-error']).length, 512);
});

test('forbid: 403 with an empty body and the reason in X-Checkbridge-Error', async (t) => {
  const answer = await (await app(t)).inject('/forbid');
  assert.deepEqual([answer.statusCode, answer.payload, answer.headers['x-checkbridge-error']], [403, '', 'not for you']);
});
