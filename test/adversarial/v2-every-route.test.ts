import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { rawRequest, pathVariants } from '../helpers/raw-http.js';

type Route = { method: string; url: string; access: 'anonymous' | 'rbac' };

/** A concrete path for a route pattern: every parameter filled with a harmless value. */
const concrete = (pattern: string) =>
  pattern.replace(/:(\w+)/g, (_m, name: string) => (name === 'file' ? 'probe.js' : `probe-${name}`)).replace(/\*$/, 'probe');

test('v2 API: every registered route refuses callers without credentials or without a role, in every spelling', async (t) => {
  const { v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'route-host', address: '127.0.0.1', subscriptions: [] } } }, [
    '--log-level',
    'debug',
  ]);
  const line = await daemon.waitFor((l) => l.msg === 'v2 API routes');
  const routes = line.routes as Route[];
  // The table is the daemon's own: a route added later is walked without anyone editing this test.
  assert.ok(routes.length > 60, `only ${routes.length} routes`);
  assert.ok(
    routes.some((r) => r.url.startsWith('/api/enterprise/')),
    'enterprise routes are in the table',
  );

  const admin = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'nobody', password: 'nobody-pass-1' })).status, 201);
  const nobody = `Key ${(await call(`${v2}/api/core/v2/apikeys`, 'POST', admin, { username: 'nobody' })).headers.get('location')!.split('/').pop()}`;

  let walked = 0;
  for (const route of routes.filter((r) => r.access !== 'anonymous')) {
    const path = concrete(route.url);
    const plain = await rawRequest(v2, route.method, path);
    assert.equal(plain.status, 401, `${route.method} ${route.url} without credentials: ${plain.status} ${plain.text}`);
    const roleless = await rawRequest(v2, route.method, path, { authorization: nobody });
    assert.equal(roleless.status, 403, `${route.method} ${route.url} by a user without roles: ${roleless.status} ${roleless.text}`);
    for (const target of pathVariants(v2, path)) {
      const reply = await rawRequest(v2, route.method, target);
      assert.ok([400, 401, 404].includes(reply.status), `${route.method} ${target} without credentials answered ${reply.status}`);
      const byRoleless = await rawRequest(v2, route.method, target, { authorization: nobody });
      assert.ok([400, 403, 404].includes(byRoleless.status), `${route.method} ${target} by a user without roles answered ${byRoleless.status}`);
      walked++;
    }
  }
  assert.ok(walked > 500, `walked ${walked} spellings`);
  // The anonymous routes are exactly the allow-list: health, version (public in Sensu Go), metrics, the login family, the dashboard page, the OIDC flow.
  const anonymous = routes.filter((r) => r.access === 'anonymous').map((r) => r.url);
  for (const url of anonymous) assert.match(url, /^\/(health|version|metrics|auth(\/.*)?|assets\/:file|api\/enterprise\/authentication\/v2\/oidc\/.*)?$/, url);
});
