// Every client's check output (event data) through the dashboard needs the rights events need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, postJson, eventually } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const RESULTS = '/api/checkbridge/v1/checks/disk/results';

test('dashboard check results: the `checks` right alone is 403, as the events API is; with events rights 200', async (t) => {
  const { v2, api } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'results-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checks.json': { checks: { disk: { command: 'true', interval: 3600, subscribers: ['none'] } } },
  });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  assert.equal((await postJson(`${api}/results`, { name: 'disk', source: 'results-host', output: 'secret-output /dev/sda1 98%', status: 2 })).status, 202);
  await eventually(
    () => getJson(`${api}/results/results-host/disk`),
    (r) => r.status === 200,
  );

  assert.equal((await call(`${core}/clusterroles/checks-reader`, 'PUT', admin, { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] })).status, 201);
  assert.equal(
    (await call(`${core}/clusterroles/checks-events-reader`, 'PUT', admin, { rules: [{ verbs: ['get', 'list'], resources: ['checks', 'events'] }] })).status,
    201,
  );
  for (const [user, role] of [
    ['cora', 'checks-reader'],
    ['evan', 'checks-events-reader'],
  ]) {
    assert.equal((await call(`${core}/users`, 'POST', admin, { username: user, password: `${user}-pass-1` })).status, 201);
    assert.equal(
      (
        await call(`${core}/clusterrolebindings/${user}`, 'PUT', admin, {
          subjects: [{ type: 'User', name: user }],
          role_ref: { type: 'ClusterRole', name: role },
        })
      ).status,
      201,
    );
  }
  const token = async (user: string) => ({
    authorization: `Bearer ${(await getJson(`${v2}/auth`, { headers: basic(user, `${user}-pass-1`) })).body.access_token}`,
  });
  const cora = await token('cora');
  const evan = await token('evan');

  // cora: checks yes, events no — everywhere.
  assert.equal((await getJson(`${v2}/api/checkbridge/v1/checks`, { headers: cora })).status, 200);
  assert.equal((await getJson(`${core}/events`, { headers: cora })).status, 403);
  assert.equal((await getJson(`${core}/namespaces/default/events`, { headers: cora })).status, 403);
  const refused = await getJson(`${v2}${RESULTS}`, { headers: cora });
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  assert.doesNotMatch(JSON.stringify(refused.body), /secret-output/);
  assert.match(refused.body.message, /may not list events in namespace "default"/);

  // evan: checks and events.
  const shown = await getJson(`${v2}${RESULTS}`, { headers: evan });
  assert.equal(shown.status, 200);
  assert.deepEqual(
    shown.body.map((r: { client: string; output: string }) => [r.client, r.output]),
    [['results-host', 'secret-output /dev/sda1 98%']],
  );
});
