// `PUT …/checks/C/hooks/TYPE`: an `edit` user's largest body is linear work while /health answers, and hook lists are
// stored and served in Sensu Go's order. Before, each type of the body searched the growing list: 8,000 types held the
// event loop for seconds, the ~37,000 the body limit allows for minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { healthWhile } from '../../helpers/liveness.js';
import { backendSkipReason, startBackend, BACKEND_ADMIN_PASSWORD } from '../../helpers/sensu-backend.js';
import { call, adminToken } from './v2-helpers.js';

const HOST = { 'conf.d/client.json': { client: { name: 'hooks-host', address: '127.0.0.1', subscriptions: [] } } };
const BODY_LIMIT = 512_000;
const check = (name: string, hooks?: object[]) => ({
  metadata: { name, namespace: 'default' },
  command: 'true',
  interval: 60,
  subscriptions: ['linux'],
  ...(hooks ? { check_hooks: hooks } : {}),
});
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** As many distinct hook types (`{"<type>": ["h"]}`) as fit in the body limit. */
function largestHookBody(): { body: string; types: number } {
  const entries: string[] = [];
  let size = 2;
  for (let i = 0; ; i++) {
    const entry = `${JSON.stringify(i.toString(36))}:["h"]`;
    if (size + entry.length + 1 > BODY_LIMIT) break;
    entries.push(entry);
    size += entry.length + 1;
  }
  return { body: `{${entries.join(',')}}`, types: entries.length };
}

test("an edit user's hook list of ~37,000 types (the body limit) is stored whole, twice over, while /health keeps answering", async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${v2}/api/core/v2/users`, 'POST', admin, { username: 'editor', password: 'editor-pass', groups: [] })).status, 201);
  const binding = {
    metadata: { name: 'e', namespace: 'default' },
    role_ref: { type: 'ClusterRole', name: 'edit' },
    subjects: [{ type: 'User', name: 'editor' }],
  };
  assert.equal((await call(`${ns}/rolebindings/e`, 'PUT', admin, binding)).status, 201);
  const login = await getJson(`${v2}/auth`, { headers: { authorization: basic('editor', 'editor-pass') } });
  const editor = `Bearer ${login.body.access_token as string}`;
  assert.equal((await call(`${ns}/checks/own`, 'PUT', editor, check('own'))).status, 201);

  const { body, types } = largestHookBody();
  assert.ok(types >= 37_000, `${types} types in ${body.length} bytes`);
  // First every type is new (appended), then every type is already there (its list looked up and kept).
  for (const round of ['new types', 'known types']) {
    const put = fetch(`${ns}/checks/own/hooks/critical`, { method: 'PUT', headers: { authorization: editor, 'content-type': 'application/json' }, body });
    const latencies = await healthWhile(v2, put);
    assert.equal((await put).status, 201, round);
    t.diagnostic(`${round}: ${latencies.length} /health answers during the write, the slowest ${Math.round(Math.max(...latencies))} ms`);
  }
  const stored = (await call(`${ns}/checks/own`, 'GET', editor)).body.check_hooks as Record<string, string[]>[];
  assert.equal(stored.length, types);
  assert.deepEqual([stored[0], stored.at(-1)], [{ '0': ['h'] }, { [(types - 1).toString(36)]: ['h'] }]);
});

// What sensuctl sends, one type a body: names join their type's list in order, each once; a new type is appended;
// the body's type decides; any type name is taken (Sensu Go's API checks none).
const STEPS: [string, object][] = [
  ['critical', { critical: ['h1'] }],
  ['critical', { critical: ['h2', 'h1', 'h2'] }],
  ['warning', { warning: ['h3', 'w0'] }],
  ['bogus', { bogus: ['h5'] }],
  ['256', { '256': ['h6'] }],
  ['critical', { ok: ['h7'] }],
];
const SERVED = [{ warning: ['w0', 'h3'] }, { critical: ['x', 'h1', 'h2'] }, { bogus: ['h5'] }, { '256': ['h6'] }, { ok: ['h7'] }];

async function hookSequence(v2: string, authorization: string): Promise<unknown> {
  const ns = `${v2}/api/core/v2/namespaces/default`;
  assert.equal((await call(`${ns}/checks/c1`, 'PUT', authorization, check('c1', [{ warning: ['w0'] }, { critical: ['x'] }]))).status, 201);
  for (const [type, body] of STEPS) assert.equal((await call(`${ns}/checks/c1/hooks/${type}`, 'PUT', authorization, body)).status, 201, JSON.stringify(body));
  return (await call(`${ns}/checks/c1`, 'GET', authorization)).body.check_hooks;
}

test('hook lists are stored and served in the order Sensu Go serves them', async (t) => {
  const { v2 } = await instanceFor(t, HOST);
  assert.deepEqual(await hookSequence(v2, `Bearer ${await adminToken(v2)}`), SERVED);
});

test('the real sensu-backend serves the same hook lists for the same writes', { skip: backendSkipReason() }, async (t) => {
  const backend = await startBackend(t);
  const login = await getJson(`${backend.api}/auth`, { headers: { authorization: basic('admin', BACKEND_ADMIN_PASSWORD) } });
  assert.deepEqual(await hookSequence(backend.api, `Bearer ${login.body.access_token as string}`), SERVED);
});
