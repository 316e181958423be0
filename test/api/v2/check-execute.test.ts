// `POST …/checks/C/execute` (`sensuctl check execute`) with a subscription repeated as often as the body limit allows:
// one request per subscription, not per repeat. Before, an edit user's 50,000 repeats of a subscription the host's
// client holds sent it 50,000 requests, each carrying the whole list: the daemon ran out of memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { healthWhile } from '../../helpers/liveness.js';
import { call, adminToken } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'execute-host', address: '127.0.0.1', subscriptions: ['linux'] } } };
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

test("an edit user's ad hoc request repeating a subscription 50,000 times is one request, and /health keeps answering", async (t) => {
  const { v2, daemon } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'editor', password: 'editor-pass', groups: [] })).status, 201);
  const binding = {
    metadata: { name: 'e', namespace: 'default' },
    role_ref: { type: 'ClusterRole', name: 'edit' },
    subjects: [{ type: 'User', name: 'editor' }],
  };
  assert.equal((await call(`${ns}/rolebindings/e`, 'PUT', admin, binding)).status, 201);
  const editor = `Bearer ${(await getJson(`${v2}/auth`, { headers: { authorization: basic('editor', 'editor-pass') } })).body.access_token as string}`;
  const check = { metadata: { name: 'adhoc', namespace: 'default' }, command: 'true', interval: 60, subscriptions: ['linux'] };
  assert.equal((await call(`${ns}/checks/adhoc`, 'PUT', editor, check)).status, 201);

  const body = JSON.stringify({ subscriptions: Array<string>(50_000).fill('linux') });
  const post = fetch(`${ns}/checks/adhoc/execute`, { method: 'POST', headers: { authorization: editor, 'content-type': 'application/json' }, body });
  await healthWhile(v2, post);
  assert.equal((await post).status, 202);
  // The work it set off (the host's client running the check) ends, with the daemon answering all along.
  await healthWhile(v2, new Promise((resolve) => setTimeout(resolve, 5_000)));
  assert.equal(daemon.proc.exitCode, null, 'the daemon is still running');
});
