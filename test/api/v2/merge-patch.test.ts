// A merge patch is read by the same parser as every JSON body: what a PUT refuses (a `__proto__` key, a constructor's
// prototype, JSON that does not parse), a PATCH refuses the same way, and nothing is stored. Before, the merge-patch
// parser took `__proto__` keys that the JSON body parser refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'patch-host', address: '127.0.0.1', subscriptions: [] } } };
const CHECK = { metadata: { name: 'c1', namespace: 'default' }, command: 'true', interval: 60, subscriptions: ['linux'] };

// Bytes, not a string: fetch would label a string text/plain.
const send = (url: string, method: string, authorization: string, body: string, type: string | null) =>
  getJson(url, { method, headers: { authorization, ...(type === null ? {} : { 'content-type': type }) }, body: Buffer.from(body) });

test('PATCH refuses what the JSON body parser refuses, with the same 400 naming the key, and stores nothing', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const url = `${v2}/api/core/v2/namespaces/default/checks/c1`;
  assert.equal((await call(url, 'PUT', admin, CHECK)).status, 201);
  const before = (await call(url, 'GET', admin)).body;
  const bodies: [string, RegExp][] = [
    ['{"__proto__":{"interval":1}}', /holds the key __proto__, refused/],
    ['{"metadata":{"labels":{"__proto__":"x"}}}', /holds the key metadata\.labels\.__proto__, refused/],
    // JSON's escapes spell the same key.
    ['{"\\u005f_proto__":{"interval":1}}', /holds the key __proto__, refused/],
    ['{"constructor":{"prototype":{"interval":1}}}', /holds the key constructor\.prototype, refused/],
    ['{"interval":', /is not valid JSON/],
  ];
  for (const [body, says] of bodies) {
    const put = await send(url, 'PUT', admin, body, 'application/json');
    assert.equal(put.status, 400, `PUT ${body}`);
    // A merge patch by its type, and a PATCH with no type (read as one, as Sensu Go does).
    for (const type of ['application/merge-patch+json', null]) {
      const patched = await send(url, 'PATCH', admin, body, type);
      assert.deepEqual([patched.status, patched.body], [put.status, put.body], `PATCH (${String(type)}) ${body} is answered as the PUT`);
    }
    assert.match(put.body.message, says);
  }
  assert.deepEqual((await call(url, 'GET', admin)).body, before, 'nothing was stored');
  // A key that only looks like one is data: patched and served.
  const labelled = await send(url, 'PATCH', admin, '{"metadata":{"labels":{"proto":"x","constructor":"y"}}}', 'application/merge-patch+json');
  assert.equal(labelled.status, 200, JSON.stringify(labelled.body));
  assert.deepEqual(labelled.body.metadata.labels, { proto: 'x', constructor: 'y' });
});
