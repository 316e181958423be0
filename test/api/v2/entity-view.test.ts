// A name reaches no further than its namespace: an agent that lives in another namespace is, seen from `default`
// (the legacy namespace, where legacy clients are entities too), exactly a name that exists nowhere, for every verb.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson } from '../../helpers/instance.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../../helpers/sensu-agent.js';
import { adminToken, call, type Reply } from './v2-helpers.js';

const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } };
const AGENT_AUTH = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');
const basic = (user: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${user}-pass-1`).toString('base64') });

function openAgent(url: string, namespace: string, name: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': namespace, 'Sensu-User': 'agent', 'Sensu-Subscriptions': 'linux', authorization: AGENT_AUTH },
    });
    // The agent sends nothing before its entity configuration arrives.
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

const keepalive = (name: string) =>
  `keepalive\n${JSON.stringify({
    entity: {
      metadata: { name, labels: { team: 'b-secret-team' } },
      entity_class: 'agent',
      subscriptions: ['b-only'],
      system: { hostname: name },
      sensu_agent_version: '6.12.0',
    },
    check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120 },
  })}`;

const patch = (url: string, authorization: string, body: unknown) =>
  getJson(url, { method: 'PATCH', headers: { authorization, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(body) });

/** Status and body, the two things a caller sees. */
const seen = (reply: Reply) => ({ status: reply.status, body: reply.body });

test('an agent of another namespace is, from default, a name that exists nowhere: GET, PATCH, PUT, DELETE, its events; its own namespace still serves it', async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  assert.equal((await call(`${core}/namespaces`, 'POST', admin, { name: 'team-b' })).status, 201);
  for (const [user, role] of [
    ['vera', 'view'],
    ['eddie', 'edit'],
  ]) {
    assert.equal((await call(`${core}/users`, 'POST', admin, { username: user, password: `${user}-pass-1`, groups: [`${user}-group`] })).status, 201);
    const binding = { subjects: [{ type: 'Group', name: `${user}-group` }], role_ref: { type: 'ClusterRole', name: role } };
    assert.equal((await call(`${core}/namespaces/default/rolebindings/${user}`, 'PUT', admin, binding)).status, 201);
  }
  const token = async (user: string) => `Bearer ${(await getJson(`${v2}/auth`, { headers: basic(user) })).body.access_token}`;
  const [vera, eddie] = [await token('vera'), await token('eddie')];

  const ws = await openAgent(agentd, 'team-b', 'b-agent');
  t.after(() => ws.terminate());
  ws.send(keepalive('b-agent'));
  const owned = await eventually(
    () => call(`${core}/namespaces/team-b/entities/b-agent`, 'GET', admin),
    (r) => r.status === 200,
  );
  assert.equal(owned.status, 200, 'the agent registered in team-b');

  const foreign = `${core}/namespaces/default/entities/b-agent`;
  const nowhere = `${core}/namespaces/default/entities/no-such-entity`;
  const same = async (caller: string, method: string, body?: unknown) => {
    const [a, b] = [seen(await call(foreign, method, caller, body)), seen(await call(nowhere, method, caller, body))];
    assert.deepEqual(a, { ...b, body: JSON.parse(JSON.stringify(b.body).replaceAll('no-such-entity', 'b-agent')) }, `${method} ${JSON.stringify(a)}`);
    return a;
  };
  // view in default: 404, the body of a name that exists nowhere (no subscriptions, version or last keepalive).
  assert.equal((await same(vera, 'GET')).status, 404);
  assert.equal((await same(admin, 'GET')).status, 404);
  const listed = (await call(`${core}/namespaces/default/entities`, 'GET', vera)).body as { metadata: { name: string } }[];
  assert.equal(
    listed.some((e) => e.metadata.name === 'b-agent'),
    false,
  );
  assert.deepEqual((await call(`${core}/namespaces/default/events/b-agent`, 'GET', vera)).body, []);
  assert.equal((await same(vera, 'DELETE')).status, 403, 'view may not delete: the same refusal either way');

  // edit in default: PATCH is 404 as for a name that exists nowhere, and nothing is stored under the name.
  const stolen = { metadata: { labels: { stolen: 'yes' } } };
  const patched = seen(await patch(foreign, eddie, stolen));
  assert.deepEqual(patched, seen(await patch(nowhere, eddie, stolen)));
  assert.equal(patched.status, 404);
  assert.equal((await call(foreign, 'GET', admin)).status, 404, 'no default entity was stored under the name');
  assert.equal((await same(eddie, 'DELETE')).status, 404);

  // PUT creates a default entity of that name, as for any new name: the two namespaces' entities stay apart.
  const put = await call(foreign, 'PUT', eddie, { entity_class: 'proxy', metadata: { labels: { mine: 'a' } } });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body.metadata.labels, { mine: 'a' });
  assert.equal(put.body.sensu_agent_version, '');
  const theirs = (await call(`${core}/namespaces/team-b/entities/b-agent`, 'GET', admin)).body;
  assert.deepEqual(theirs.metadata.labels, { team: 'b-secret-team' }, 'the owner namespace still serves its agent, untouched');
  assert.ok(theirs.subscriptions.includes('b-only'));
  assert.equal(theirs.entity_class, 'agent');
});
