// The lazily loaded schema compilers on a real Fastify app: a route that declares a schema is still validated and serialized by them.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { lazySchemaController } from '../../src/http/compilers.js';

async function appOf(t: TestContext) {
  const app = Fastify({ schemaController: lazySchemaController });
  app.post(
    '/typed',
    {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { doubled: { type: 'integer' } } } },
      },
    },
    async (request) => ({ doubled: (request.body as { n: number }).n * 2, hidden: 'not in the response schema' }),
  );
  app.get('/untyped', async () => ({ any: 'thing' }));
  await app.ready();
  t.after(() => app.close());
  return app;
}

const loaded = (name: string) => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes(`/node_modules/@fastify/${name}/`));

// First in this file: no app with a schema exists yet in this process.
test('an app whose routes declare no schema starts without loading the compilers', async (t) => {
  const app = Fastify({ schemaController: lazySchemaController });
  app.get('/', async () => ({ ok: true }));
  await app.ready();
  t.after(() => app.close());
  assert.deepEqual((await app.inject({ method: 'GET', url: '/' })).json(), { ok: true });
  assert.equal(loaded('ajv-compiler'), false);
  assert.equal(loaded('fast-json-stringify-compiler'), false);
  await appOf(t);
  assert.equal(loaded('ajv-compiler'), true, 'a schema loads them');
  assert.equal(loaded('fast-json-stringify-compiler'), true);
});

test('a route without a schema answers as usual', async (t) => {
  const app = await appOf(t);
  assert.deepEqual((await app.inject({ method: 'GET', url: '/untyped' })).json(), { any: 'thing' });
});

test('a body schema is enforced: a valid body passes, a body missing a required field is a 400', async (t) => {
  const app = await appOf(t);
  const ok = await app.inject({ method: 'POST', url: '/typed', payload: { n: 21 } });
  assert.equal(ok.statusCode, 200);
  const refused = await app.inject({ method: 'POST', url: '/typed', payload: { m: 1 } });
  assert.equal(refused.statusCode, 400);
  assert.match(refused.json().message, /must have required property 'n'/);
});

test('a response schema is used to serialize: fields it does not name are left out', async (t) => {
  const app = await appOf(t);
  assert.deepEqual((await app.inject({ method: 'POST', url: '/typed', payload: { n: 21 } })).json(), { doubled: 42 });
});

test('two apps share the compilers without one breaking the other', async (t) => {
  const one = await appOf(t);
  const two = await appOf(t);
  assert.equal((await one.inject({ method: 'POST', url: '/typed', payload: { n: 1 } })).json().doubled, 2);
  assert.equal((await two.inject({ method: 'POST', url: '/typed', payload: { n: 'x' } })).statusCode, 400);
});
