// Which unknown requests are a 405 rather than a 404: the recorded route patterns and their methods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { recordRoutePaths, routedOtherwise } from '../../../src/api/v2/method-not-allowed.js';

async function appWithRoutes() {
  const app = Fastify();
  recordRoutePaths(app);
  const ok = () => ({});
  app.get('/api/core/v2/namespaces/:namespace/checks', ok);
  app.put('/api/core/v2/namespaces/:namespace/checks/:name', ok);
  app.get('/api/core/v2/namespaces/:namespace/checks/:name', ok);
  app.get('/files/a.b', ok);
  app.get('/dashboard/*', ok);
  await app.ready();
  return app;
}

test('a path routed for other methods is routed otherwise; for its own method it is not', async () => {
  const app = await appWithRoutes();
  assert.equal(routedOtherwise(app, 'POST', '/api/core/v2/namespaces/default/checks/cpu'), true);
  assert.equal(routedOtherwise(app, 'DELETE', '/api/core/v2/namespaces/default/checks'), true);
  assert.equal(routedOtherwise(app, 'GET', '/api/core/v2/namespaces/default/checks/cpu'), false);
  assert.equal(routedOtherwise(app, 'PUT', '/api/core/v2/namespaces/default/checks/cpu'), false);
});

test('a parameter is exactly one segment, and the query string is not part of the path', async () => {
  const app = await appWithRoutes();
  assert.equal(routedOtherwise(app, 'POST', '/api/core/v2/namespaces/default/checks/cpu/extra'), false);
  assert.equal(routedOtherwise(app, 'POST', '/api/core/v2/namespaces//checks'), false);
  assert.equal(routedOtherwise(app, 'POST', '/api/core/v2/namespaces/default/checks?limit=1'), true);
});

test('literal segments match literally: a dot in a pattern is no wildcard', async () => {
  const app = await appWithRoutes();
  assert.equal(routedOtherwise(app, 'POST', '/files/a.b'), true);
  assert.equal(routedOtherwise(app, 'POST', '/files/aXb'), false);
});

test('a catch-all route does not make every path known, and an app that recorded nothing knows none', async () => {
  const app = await appWithRoutes();
  assert.equal(routedOtherwise(app, 'POST', '/dashboard/anything'), false);
  const bare = Fastify();
  bare.get('/x', () => ({}));
  assert.equal(routedOtherwise(bare, 'POST', '/x'), false);
});
