// GET /version as Sensu Go answers it, and the tessen choice kept in a real SQLite store and served back.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerVersionRoutes } from '../../../src/api/v2/version.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';

function versionApp(t: TestContext) {
  const store = sqliteStore(t);
  const app = Fastify();
  registerVersionRoutes(app, store.resources);
  t.after(() => app.close());
  return { app, store };
}

test('version names the Sensu Go release answered as, its API groups, and no etcd', async (t) => {
  const { app } = versionApp(t);
  assert.deepEqual((await app.inject({ method: 'GET', url: '/version' })).json(), {
    etcd: null,
    sensu_backend: '6.12.0',
    api_groups: { 'core/v2': 'v2.20.0', 'secrets/v1': 'v1.0.0', 'store/v1': 'v1.0.0', 'authentication/v2': 'v2.0.0' },
  });
});

test('tessen is opted out until set, and keeps what it is set to', async (t) => {
  const { app, store } = versionApp(t);
  const get = async () => (await app.inject({ method: 'GET', url: '/api/core/v2/tessen' })).json();
  assert.deepEqual(await get(), { opt_out: true });
  const put = await app.inject({ method: 'PUT', url: '/api/core/v2/tessen', payload: { opt_out: false } });
  assert.equal(put.statusCode, 200);
  assert.deepEqual(put.json(), { opt_out: false });
  assert.deepEqual(await get(), { opt_out: false });
  assert.deepEqual(store.resources.getResource('TessenConfig', '', 'tessen'), { opt_out: false });
  await app.inject({ method: 'PUT', url: '/api/core/v2/tessen', payload: { opt_out: true } });
  assert.deepEqual(await get(), { opt_out: true });
});

test('tessen takes only true or false', async (t) => {
  const { app } = versionApp(t);
  for (const payload of [{ opt_out: 'yes' }, {}]) {
    const reply = await app.inject({ method: 'PUT', url: '/api/core/v2/tessen', payload });
    assert.equal(reply.statusCode, 400);
    assert.deepEqual(reply.json(), { message: 'opt_out must be true or false', code: 1 });
  }
});
