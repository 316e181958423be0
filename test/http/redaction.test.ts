// The redaction hook on a real Fastify app: every JSON body is redacted, except exempt routes and a response let through on purpose.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerRedaction, unredacted } from '../../src/http/redaction.js';

const SECRET = { name: 'db', password: 'hunter2', nested: [{ api_key: 'k-123', keep: 'visible' }] };

async function appOf(t: TestContext, exempt?: readonly string[]) {
  const app = Fastify();
  registerRedaction(app, exempt);
  app.get('/plain', async () => SECRET);
  app.get('/tokens/:id', async () => SECRET);
  app.get('/exact', async (request) => unredacted(request, SECRET));
  app.get('/text', async (_request, reply) => reply.type('text/plain').send('password=hunter2'));
  await app.ready();
  t.after(() => app.close());
  return (url: string) => app.inject({ method: 'GET', url });
}

test('a JSON body has its secret keys redacted at any depth, and other fields kept', async (t) => {
  const get = await appOf(t);
  assert.deepEqual((await get('/plain')).json(), { name: 'db', password: 'REDACTED', nested: [{ api_key: 'REDACTED', keep: 'visible' }] });
});

test('a route marked exempt by its URL pattern sends its body exact; others on the same app are still redacted', async (t) => {
  const get = await appOf(t, ['/tokens/:id']);
  assert.deepEqual((await get('/tokens/7')).json(), SECRET);
  assert.equal((await get('/plain')).json().password, 'REDACTED');
});

test('a response let through as it is stays exact, and only that response', async (t) => {
  const get = await appOf(t);
  assert.deepEqual((await get('/exact')).json(), SECRET);
  assert.equal((await get('/plain')).json().password, 'REDACTED');
});

test('the value returned by the handler is not changed by redaction', async (t) => {
  const get = await appOf(t);
  await get('/plain');
  assert.equal(SECRET.password, 'hunter2');
  assert.equal(SECRET.nested[0]?.api_key, 'k-123');
});

test('a body that is not serialized as JSON is sent as it is', async (t) => {
  const get = await appOf(t);
  assert.equal((await get('/text')).body, 'password=hunter2');
});
