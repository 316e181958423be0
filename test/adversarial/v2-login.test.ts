import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { instanceFor, getJson, adminBasic } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** GET /auth from a chosen loopback address, so the per-address limit can be seen per address. */
function loginFrom(v2: string, localAddress: string, headers: Record<string, string>): Promise<{ status: number; retryAfter: string | undefined }> {
  const url = new URL(`${v2}/auth`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: '/auth', headers, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('v2 login: a password change ends the sessions of that user', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'login-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'carol', password: 'carol-pass-1' })).status, 201);
  const stolen = (await getJson(`${v2}/auth`, { headers: basic('carol', 'carol-pass-1') })).body;
  // Carol has no role: reading herself is what any user may do (RBAC).
  assert.equal((await call(`${v2}/api/core/v2/users/carol`, 'GET', `Bearer ${stolen.access_token}`)).status, 200);
  assert.equal((await call(`${v2}/api/core/v2/users/carol/password`, 'PUT', admin, { password: 'carol-pass-2' })).status, 201);
  const refreshed = await call(`${v2}/auth/token`, 'POST', `Bearer ${stolen.access_token}`, { refresh_token: stolen.refresh_token });
  assert.ok(refreshed.status >= 400, `refresh after the password change answered ${refreshed.status}`);
  assert.equal((await call(`${v2}/api/core/v2/users/carol`, 'GET', `Bearer ${stolen.access_token}`)).status, 401, 'the old access token is dead too');
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('carol', 'carol-pass-2') })).status, 200, 'the new password works');
  // Another user's sessions are untouched.
  assert.equal((await call(`${v2}/api/core/v2/events`, 'GET', admin)).status, 200);
});

test('v2 login: unknown users and wrong passwords take the same time, and failures are rate limited per address', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'login-host', address: '127.0.0.1', subscriptions: [] } } });
  const timed = async (headers: Record<string, string>) => {
    const started = process.hrtime.bigint();
    const reply = await loginFrom(v2, '127.0.0.1', headers);
    assert.equal(reply.status, 401);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const wrong: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 7; i++) {
    wrong.push(await timed(basic('admin', `wrong-${i}`)));
    unknown.push(await timed(basic(`nobody-${i}`, `wrong-${i}`)));
  }
  const ratio = median(wrong) / median(unknown);
  // Without the dummy hash an unknown user answered ~60 times faster; the same work on both paths keeps this near 1.
  assert.ok(ratio < 3 && ratio > 1 / 3, `wrong password ${median(wrong).toFixed(1)} ms, unknown user ${median(unknown).toFixed(1)} ms`);

  // 14 failures so far; six more reach the limit of 20 per minute.
  for (let i = 0; i < 6; i++) assert.equal((await loginFrom(v2, '127.0.0.1', basic('admin', 'nope'))).status, 401);
  const limited = await loginFrom(v2, '127.0.0.1', adminBasic);
  assert.equal(limited.status, 429, 'even the right password waits once the address is limited');
  assert.ok(Number(limited.retryAfter) >= 1 && Number(limited.retryAfter) <= 60, `Retry-After: ${limited.retryAfter}`);
  // Another address is not affected.
  assert.equal((await loginFrom(v2, '127.0.0.2', adminBasic)).status, 200);
});
