// The real sensuctl 6.12 on the routes beside plain CRUD: check hooks, and the namespace list of a user bound in one namespace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, ADMIN_PASSWORD } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';
import { sensuctlSkipReason, sensuctlFor, ok } from '../../helpers/sensuctl.js';

const HOST = { 'conf.d/client.json': { client: { name: 'sensuctl-routes-host', address: '127.0.0.1', subscriptions: [] } } };
const skip = sensuctlSkipReason();

test('sensuctl: check set-hooks and remove-hook; namespace list as a user with view bound in one namespace', { skip }, async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const sensuctl = sensuctlFor(t);
  ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
  ok(sensuctl, 'hook', 'create', 'h1', '--command', 'ps', '--timeout', '10');
  ok(sensuctl, 'check', 'create', 'c1', '--command', 'true', '--interval', '60', '--subscriptions', 'linux');
  ok(sensuctl, 'check', 'set-hooks', 'c1', '--type', 'critical', '--hooks', 'h1,h2');
  const hooksOf = () => (JSON.parse(ok(sensuctl, 'check', 'info', 'c1', '--format', 'json')) as { check_hooks: unknown }).check_hooks;
  assert.deepEqual(hooksOf(), [{ critical: ['h1', 'h2'] }]);
  ok(sensuctl, 'check', 'remove-hook', 'c1', 'critical', 'h1');
  assert.deepEqual(hooksOf(), [{ critical: ['h2'] }]);
  ok(sensuctl, 'namespace', 'create', 'vr');
  ok(sensuctl, 'user', 'create', 'viewer', '--password', 'viewer-pass');
  ok(sensuctl, 'role-binding', 'create', 'rb', '--cluster-role', 'view', '--user', 'viewer', '--namespace', 'vr');
  const viewer = sensuctlFor(t);
  ok(viewer, 'configure', '-n', '--url', v2, '--username', 'viewer', '--password', 'viewer-pass', '--namespace', 'vr');
  assert.deepEqual(JSON.parse(ok(viewer, 'namespace', 'list', '--format', 'json')), [{ name: 'vr' }]);
  assert.equal((await call(`${v2}/api/core/v2/namespaces`, 'GET', admin)).body.length, 2);
});
