// An ad hoc check request is the caller's: the creator logged and sent on is who the token says, whatever the body names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

test('check execute: an edit user naming "admin" as creator is logged as themselves, at the API and the scheduler', async (t) => {
  const { v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'exec-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'eve', password: 'eve-pass-1' })).status, 201);
  const binding = { subjects: [{ type: 'User', name: 'eve' }], role_ref: { type: 'ClusterRole', name: 'edit' } };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/rolebindings/eve-edit`, 'PUT', admin, binding)).status, 201);
  const eve = `Bearer ${(await getJson(`${v2}/auth`, { headers: basic('eve', 'eve-pass-1') })).body.access_token}`;
  const checks = `${v2}/api/core/v2/namespaces/default/checks`;
  assert.equal((await call(`${checks}/disk`, 'PUT', eve, { command: 'true', interval: 60, subscriptions: ['linux'], publish: false })).status, 201);

  const asked = await call(`${checks}/disk/execute`, 'POST', eve, { check: 'disk', creator: 'admin', reason: 'posing' });
  assert.equal(asked.status, 202);
  const api = await daemon.waitFor((l) => l.msg === 'check execution requested' && l.reason === 'posing');
  assert.equal(api.creator, 'eve');
  const scheduler = await daemon.waitFor((l) => l.msg === 'ad hoc check request' && l.reason === 'posing');
  assert.equal(scheduler.creator, 'eve');
});
