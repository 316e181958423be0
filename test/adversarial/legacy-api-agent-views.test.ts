// The legacy API reads Sensu Go agents' events from their own namespace: a legacy client cannot pose as an agent to
// read or resolve another namespace's events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, postJson } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const config = { 'conf.d/a.json': { client: { name: 'adv', address: '127.0.0.1', subscriptions: [] } } };

test('legacy API: POST /clients cannot create an agent record pointing at another namespace (400 naming why)', async (t) => {
  const { api, v2 } = await instanceFor(t, config);
  const auth = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team-b`, 'PUT', auth, { name: 'team-b' })).status, 201);
  const event = {
    entity: { entity_class: 'agent', metadata: { name: 'spoof' } },
    check: { metadata: { name: 'secret-check' }, status: 2, output: 'team-b only', interval: 60 },
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team-b/events/spoof/secret-check`, 'PUT', auth, event)).status, 201);

  const posed = await postJson(`${api}/clients`, { name: 'spoof', address: '10.0.0.1', entity_class: 'agent', namespace: 'team-b', subscriptions: [] });
  assert.equal(posed.status, 400);
  assert.equal(posed.headers.get('x-checkbridge-error'), 'entity_class agent is for Sensu Go agents, which register over the agent WebSocket');
  assert.equal((await getJson(`${api}/clients/spoof`)).status, 404, 'nothing stored');
  assert.equal((await getJson(`${api}/events/spoof/secret-check`)).status, 404);
  assert.deepEqual((await getJson(`${api}/events/spoof`)).body, []);
  assert.equal((await call(`${api}/events/spoof/secret-check`, 'DELETE', null)).status, 404, 'nor resolved');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team-b/events/spoof/secret-check`, 'GET', auth)).body.check.status, 2);
  // A legacy client of that name is an ordinary client, whose events are its own.
  assert.equal((await postJson(`${api}/clients`, { name: 'spoof', address: '10.0.0.1', namespace: 'team-b', subscriptions: [] })).status, 201);
  assert.deepEqual((await getJson(`${api}/events/spoof`)).body, []);
});
