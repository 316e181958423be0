// The client's HTTP socket: /info, /results and /events into the intake as the local client's results, /settings
// behind Basic auth (redacted unless asked), the teapot, and the legacy answers to unknown paths and methods.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildHttpSocket } from '../../src/client/http-socket.js';
import { LEGACY_VERSION } from '../../src/legacy-version.js';
import { systemClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const auth = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

function httpSocket(t: TestContext, httpSocketSettings: Record<string, unknown> = { user: 'u', password: 'p:w' }) {
  const { store, intake } = sqliteIntake(t);
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [], http_socket: httpSocketSettings } });
  const app = buildHttpSocket({ settings: () => settings, intake, clock: systemClock });
  t.after(() => app.close());
  return { store, app };
}

const json = { 'content-type': 'application/json' };

test("/results takes a result or an array of them as the local client's; /events takes a v2 check", async (t) => {
  const { store, app } = httpSocket(t);
  const one = await app.inject({ method: 'POST', url: '/results', headers: json, payload: { name: 'disk', output: 'disk 91%', status: 1 } });
  assert.deepEqual([one.statusCode, one.json()], [202, { response: 'ok' }]);
  const many = await app.inject({
    method: 'POST',
    url: '/results',
    headers: json,
    payload: [
      { name: 'a', output: 'x', status: 0 },
      { name: 'b', output: 'y', status: 2 },
    ],
  });
  assert.equal(many.statusCode, 202);
  const v2 = await app.inject({
    method: 'POST',
    url: '/events',
    headers: json,
    payload: { check: { metadata: { name: 'adhoc' }, status: 2, output: 'from v2' } },
  });
  assert.equal(v2.statusCode, 202);
  assert.deepEqual(
    ['disk', 'a', 'b', 'adhoc'].map((check) => store.getResult('door', check)?.check.output),
    ['disk 91%', 'x', 'y', 'from v2'],
  );
});

test('a result that is not JSON, not of JSON type, or invalid is refused with the reason; nothing is stored', async (t) => {
  const { store, app } = httpSocket(t);
  const wrongType = await app.inject({ method: 'POST', url: '/results', headers: { 'content-type': 'text/plain' }, payload: '{}' });
  assert.deepEqual([wrongType.statusCode, wrongType.json()], [415, { response: 'Invalid content type' }]);
  const unparsable = await app.inject({ method: 'POST', url: '/results', headers: json, payload: '{"name":' });
  assert.deepEqual([unparsable.statusCode, unparsable.json()], [400, { response: 'Failed to parse JSON body' }]);
  const invalid = await app.inject({
    method: 'POST',
    url: '/results',
    headers: json,
    payload: [{ name: 'first', output: 'x', status: 0 }, { output: 'no name' }],
  });
  assert.equal(invalid.statusCode, 400);
  assert.match(invalid.json().response, /name/);
  assert.equal(store.getResult('door', 'first'), null, 'a refused array stores none of its results');
});

test('/info says the legacy version and the in-process transport; /brew is a teapot', async (t) => {
  const { app } = httpSocket(t);
  assert.deepEqual((await app.inject({ url: '/info' })).json(), { sensu: { version: LEGACY_VERSION }, transport: { name: 'in-process', connected: true } });
  const brew = await app.inject({ url: '/brew' });
  assert.deepEqual([brew.statusCode, brew.json()], [418, { response: "I'm a teapot!" }]);
});

test('/settings needs the http_socket credentials (a password may hold a colon) and redacts secrets', async (t) => {
  const { app } = httpSocket(t);
  const anonymous = await app.inject({ url: '/settings' });
  assert.equal(anonymous.statusCode, 401);
  assert.equal(anonymous.headers['www-authenticate'], 'Basic realm="Sensu Client Restricted Area"');
  assert.equal((await app.inject({ url: '/settings', headers: { authorization: auth('u', 'wrong') } })).statusCode, 401);
  const settings = await app.inject({ url: '/settings', headers: { authorization: auth('u', 'p:w') } });
  assert.equal(settings.statusCode, 200);
  assert.equal(settings.json().client.name, 'door');
  assert.equal(settings.json().client.http_socket.password, 'REDACTED');
});

test('protect_all_endpoints puts every endpoint but /brew behind the credentials', async (t) => {
  const { app } = httpSocket(t, { user: 'u', password: 'p', protect_all_endpoints: true });
  assert.equal((await app.inject({ url: '/info' })).statusCode, 401);
  assert.equal((await app.inject({ method: 'POST', url: '/results', headers: json, payload: { name: 'x', output: 'x', status: 0 } })).statusCode, 401);
  assert.equal((await app.inject({ url: '/info', headers: { authorization: auth('u', 'p') } })).statusCode, 200);
  assert.equal((await app.inject({ url: '/brew' })).statusCode, 418);
});

test('an unknown path lists the endpoints; a known one with the wrong method names the valid ones', async (t) => {
  const { app } = httpSocket(t);
  const unknown = await app.inject({ url: '/nowhere' });
  assert.equal(unknown.statusCode, 404);
  assert.deepEqual(Object.keys(unknown.json().endpoints), ['/info', '/results', '/settings', '/brew', '/events']);
  const wrong = await app.inject({ method: 'DELETE', url: '/results' });
  assert.deepEqual([wrong.statusCode, wrong.json()], [405, { response: 'Valid methods for this endpoint: ["POST"]' }]);
});
