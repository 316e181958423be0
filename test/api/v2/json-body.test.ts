// The v2 API's one JSON body parser on a real Fastify app: accepted bodies, and the 400 naming why a body is refused, for every type it reads.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { readJsonBodies } from '../../../src/api/v2/json-body.js';

const PATCH = 'application/merge-patch+json';

async function appOf(t: TestContext) {
  const app = Fastify();
  readJsonBodies(app, [PATCH]);
  app.put('/echo', async (request) => ({ got: request.body }));
  app.patch('/echo', async (request) => ({ got: request.body }));
  await app.ready();
  t.after(() => app.close());
  return (method: 'PUT' | 'PATCH', type: string, payload: string) =>
    app
      .inject({ method, url: '/echo', headers: { 'content-type': type }, payload })
      .then((r) => ({ status: r.statusCode, body: r.json() as Record<string, any> }));
}

test('a JSON body is parsed for PUT, and a PATCH type listed is parsed the same way', async (t) => {
  const send = await appOf(t);
  assert.deepEqual(await send('PUT', 'application/json', '{"a":[1,{"b":null}]}'), { status: 200, body: { got: { a: [1, { b: null }] } } });
  assert.deepEqual(await send('PATCH', PATCH, '{"a":1}'), { status: 200, body: { got: { a: 1 } } });
});

test('invalid JSON is a 400 saying so, with the parser message', async (t) => {
  const send = await appOf(t);
  const refused = await send('PUT', 'application/json', '{"a":');
  assert.equal(refused.status, 400);
  assert.match(refused.body.message, /^the request body is not valid JSON: /);
});

test('a __proto__ key at any depth is refused, naming where it is', async (t) => {
  const send = await appOf(t);
  const top = await send('PUT', 'application/json', '{"__proto__":{"admin":true}}');
  assert.equal(top.status, 400);
  assert.match(top.body.message, /holds the key __proto__, refused: it could reach an object prototype/);
  const deep = await send('PATCH', PATCH, '{"metadata":{"labels":[{"__proto__":{}}]}}');
  assert.equal(deep.status, 400);
  assert.match(deep.body.message, /holds the key metadata\.labels\.0\.__proto__,/);
});

test('constructor with a prototype inside is refused; a constructor key alone is data', async (t) => {
  const send = await appOf(t);
  const refused = await send('PUT', 'application/json', '{"spec":{"constructor":{"prototype":{"x":1}}}}');
  assert.equal(refused.status, 400);
  assert.match(refused.body.message, /holds the key spec\.constructor\.prototype,/);
  assert.deepEqual(await send('PUT', 'application/json', '{"constructor":"a string","c":{"constructor":{"other":1}}}'), {
    status: 200,
    body: { got: { constructor: 'a string', c: { constructor: { other: 1 } } } },
  });
});
