// v2 list responses on a real Fastify app: field and label selectors (refusals included) and key-ordered paging with continue tokens.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { listResponse, page } from '../../../src/api/v2/listing.js';
import { fieldSet } from '../../../src/v2/resource-fields.js';
import type { Json } from '../../../src/json.js';

const ITEMS = (): Json[] => [
  { metadata: { name: 'c', labels: { env: 'prod', password: 'hunter2' } }, tags: ['linux', 'web'] },
  { metadata: { name: 'a', labels: { env: 'dev' } }, tags: ['windows'] },
  { metadata: { name: 'b', labels: { env: 'prod' } }, tags: ['linux'] },
];
const FIELDS = fieldSet('item', { name: (i) => i.metadata?.name, tags: (i) => i.tags ?? [] });

/** An app listing `items()` at /items (selectors and paging) and /paged (paging alone). */
async function appOf(t: TestContext, items: () => Json[] = ITEMS) {
  const app = Fastify();
  app.get('/items', async (request, reply) => listResponse(request, reply, items(), FIELDS, (i) => String(i.metadata?.name)));
  app.get('/paged', async (request, reply) => page(request, reply, items(), (i) => String(i.metadata?.name)));
  await app.ready();
  t.after(() => app.close());
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    const body = response.json() as Json;
    return {
      status: response.statusCode,
      body,
      names: Array.isArray(body) ? body.map((i: Json) => i.metadata.name) : null,
      next: response.headers['sensu-continue'],
    };
  };
  return get;
}
const q = (selector: string) => encodeURIComponent(selector);

test('without selectors or a limit every item is listed, in key order, with no continue token', async (t) => {
  const get = await appOf(t);
  const listed = await get('/items');
  assert.deepEqual(listed.names, ['a', 'b', 'c']);
  assert.equal(listed.next, undefined);
});

test('a field selector keeps the matching items; repeated selectors must all match', async (t) => {
  const get = await appOf(t);
  assert.deepEqual((await get(`/items?fieldSelector=${q('item.name == b')}`)).names, ['b']);
  assert.deepEqual((await get(`/items?fieldSelector=${q('linux in item.tags')}`)).names, ['b', 'c']);
  assert.deepEqual((await get(`/items?fieldSelector=${q('linux in item.tags')}&fieldSelector=${q('item.name != b')}`)).names, ['c']);
  assert.deepEqual((await get(`/items?fieldSelector=${q('item.labels.env == dev')}`)).names, ['a'], "a label is a field under the prefix's labels");
});

test('a label selector reads the bare label keys', async (t) => {
  const get = await appOf(t);
  assert.deepEqual((await get(`/items?labelSelector=${q('env == prod')}`)).names, ['b', 'c']);
  assert.deepEqual((await get(`/items?labelSelector=${q('env == prod')}&fieldSelector=${q('item.name == c')}`)).names, ['c']);
});

test('selectors see labels as the caller does: a secret label cannot be matched by its value', async (t) => {
  const get = await appOf(t);
  assert.deepEqual((await get(`/items?labelSelector=${q('password == hunter2')}`)).names, []);
  assert.deepEqual((await get(`/items?labelSelector=${q('password == REDACTED')}`)).names, ['c'], 'what the caller sees is what matches');
  assert.deepEqual((await get(`/items?fieldSelector=${q('item.labels.password == hunter2')}`)).names, []);
});

test('a field selector naming an unknown field is refused, listing the fields there are', async (t) => {
  const get = await appOf(t);
  const refused = await get(`/items?fieldSelector=${q('item.nmae == b')}`);
  assert.equal(refused.status, 400);
  assert.match(String(refused.body.message), /unknown field "item\.nmae"; fields: item\.name, item\.tags, item\.labels\.<key>/);
});

test('a selector that does not parse is refused, naming the parameter', async (t) => {
  const get = await appOf(t);
  const refused = await get(`/items?labelSelector=${q('env ==')}`);
  assert.equal(refused.status, 400);
  assert.match(String(refused.body.message), /^failed to parse labelSelector: /);
});

test('a limit gives a page and a token; following the tokens lists every item once', async (t) => {
  const get = await appOf(t);
  const first = await get('/paged?limit=2');
  assert.deepEqual(first.names, ['a', 'b']);
  assert.equal(typeof first.next, 'string');
  const second = await get(`/paged?limit=2&continue=${first.next}`);
  assert.deepEqual(second.names, ['c']);
  assert.equal(second.next, undefined, 'the last page has no token');
  const exact = await get('/paged?limit=3');
  assert.deepEqual([exact.names, exact.next], [['a', 'b', 'c'], undefined]);
});

test('items added or removed between pages never make a client skip or repeat the others', async (t) => {
  let items = ITEMS();
  const get = await appOf(t, () => items);
  const first = await get('/paged?limit=2');
  assert.deepEqual(first.names, ['a', 'b']);
  items = [...items.filter((i) => i.metadata.name !== 'b'), { metadata: { name: 'bb' } }, { metadata: { name: 'aa' } }];
  assert.deepEqual((await get(`/paged?continue=${first.next}`)).names, ['bb', 'c']);
});

test('a limit that is not a number, or 0, lists everything; a token that is not base64url restarts the list', async (t) => {
  const get = await appOf(t);
  assert.deepEqual((await get('/paged?limit=two')).names, ['a', 'b', 'c']);
  assert.deepEqual((await get('/paged?limit=0')).names, ['a', 'b', 'c']);
  assert.deepEqual((await get('/paged?limit=-1')).names, ['a', 'b', 'c']);
  assert.deepEqual((await get('/paged?limit=1&continue=*not*a*token*')).names, ['a']);
});
