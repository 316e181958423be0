// The generic routes' answer to a stored write, and the identity helper that types a kind's hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { created, resourceKind } from '../../../src/api/v2/resource-writer.js';

test('a stored write is answered 201 with no body, typed as JSON', async () => {
  const app = Fastify();
  app.put('/thing', (_request, reply) => created(reply, 'default', 'thing'));
  const reply = await app.inject({ method: 'PUT', url: '/thing' });
  assert.equal(reply.statusCode, 201);
  assert.equal(reply.body, '');
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  await app.close();
});

test('a kind is kept as declared, hooks included', () => {
  const validate = (resource: object) => (Object.keys(resource).length === 0 ? 'empty' : null);
  const kind = { path: 'handlers', type: 'Handler' as const, validate };
  const declared = resourceKind(kind);
  assert.equal(declared, kind);
  assert.equal(declared.validate({}), 'empty');
  assert.equal(declared.validate({ command: 'cat' }), null);
});
