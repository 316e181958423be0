// Secret values and the agent WebSocket, seen from agents that record every frame: a check request to an agent without
// mutual TLS never holds a value, one over mutual TLS holds exactly Sensu Go's `NAME=value` list, a Secret of another
// namespace is never resolved, and no value reaches the daemon's log or the v2 API's check and event views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestCa } from '../helpers/tls.js';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';
import { putSecret, SECRETS } from '../secrets/vault-setup.js';
import { recordingAgent } from '../helpers/recording-agent.js';

const VALUE = 'hostile-token-e03b7a51';
const OTHER = 'other-namespace-9c6d2f';
const ENV = { CB_TEST_HOSTILE_TOKEN: VALUE, CB_TEST_OTHER_TOKEN: OTHER };
const CLIENT = { name: 'cb-host', address: '127.0.0.1', subscriptions: [] };

async function putCheck(v2: string, auth: string, name: string, secret: string): Promise<void> {
  const body = {
    metadata: { name },
    command: 'true',
    interval: 1,
    publish: true,
    subscriptions: ['linux'],
    handlers: [],
    secrets: [{ name: 'TOKEN', secret }],
  };
  const reply = await call(`${v2}/api/core/v2/namespaces/default/checks/${name}`, 'PUT', auth, body);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

/** Nothing the daemon logged nor the v2 API shows of checks and events holds a value. */
async function assertNowhere(v2: string, auth: string, logs: unknown[]): Promise<void> {
  const views = [
    await call(`${v2}/api/core/v2/namespaces/default/checks`, 'GET', auth),
    await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', auth),
    await call(`${v2}/api/core/v2/events`, 'GET', auth),
  ];
  for (const view of views) assert.equal(view.status, 200);
  for (const [where, text] of [
    ['the log', JSON.stringify(logs)],
    ['the API views', JSON.stringify(views.map((v) => v.body))],
  ]) {
    for (const value of [VALUE, OTHER]) assert.ok(!text.includes(value), `${where} shows a secret value`);
  }
}

test('an agent without mutual TLS gets check requests that hold no secret value, however often they come', { timeout: 60_000 }, async (t) => {
  const { v2, daemon, agentd } = await agentInstanceFor(t, { 'conf.d/config.json': { client: CLIENT } }, [], ENV);
  const auth = `Bearer ${await adminToken(v2)}`;
  await putSecret(v2, auth, 'hostile-token', 'env', 'CB_TEST_HOSTILE_TOKEN');
  const agent = await recordingAgent(agentd, 'plain-recorder', { password: AGENT_PASSWORD });
  t.after(() => agent.close());
  await putCheck(v2, auth, 'wants-token', 'hostile-token');
  await eventually(
    async () => agent.requests.length,
    (n) => n >= 3,
    20_000,
  );
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/plain-recorder/wants-token`, 'GET', auth),
    (r) => r.status === 200,
  );
  for (const request of agent.requests) {
    assert.equal(request.config.metadata.name, 'wants-token');
    assert.equal(request.secrets, undefined, 'no secrets field at all');
    assert.deepEqual(request.config.secrets, [{ name: 'TOKEN', secret: 'hostile-token' }], 'the references, which are names');
  }
  assert.ok(!agent.raw.join('\n').includes(VALUE), 'no frame holds the value');
  assert.equal(daemon.logs.filter((l) => l.msg === 'secrets withheld: the agent runs the check without them').length, 1);
  await assertNowhere(v2, auth, daemon.logs);
});

test('over mutual TLS the request holds exactly NAME=value, and a Secret of another namespace is never resolved', { timeout: 60_000 }, async (t) => {
  const ca = makeTestCa();
  t.after(() => ca.remove());
  const server = ca.issue();
  const cert = ca.issue(['mtls-recorder'], { client: true });
  const tls = { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile };
  const { v2, daemon, agentd } = await agentInstanceFor(t, { 'conf.d/config.json': { client: CLIENT, checkbridge: { agentd: { tls } } } }, [], ENV);
  const auth = `Bearer ${await adminToken(v2)}`;
  await putSecret(v2, auth, 'hostile-token', 'env', 'CB_TEST_HOSTILE_TOKEN');
  // A Secret that exists only in another namespace: a check of `default` naming it must not reach it.
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team-b`, 'PUT', auth, { name: 'team-b' })).status, 201);
  const stolen = await call(`${v2}${SECRETS}/namespaces/team-b/secrets/stolen`, 'PUT', auth, {
    type: 'Secret',
    api_version: 'secrets/v1',
    metadata: { name: 'stolen', namespace: 'team-b' },
    spec: { provider: 'env', id: 'CB_TEST_OTHER_TOKEN' },
  });
  assert.equal(stolen.status, 201, JSON.stringify(stolen.body));
  const agent = await recordingAgent(agentd, 'mtls-recorder', { tls: { ca: ca.caPem, cert: cert.cert, key: cert.key } });
  t.after(() => agent.close());
  await putCheck(v2, auth, 'wants-token', 'hostile-token');
  await putCheck(v2, auth, 'wants-other', 'stolen');
  await eventually(
    async () => agent.requests.length,
    (n) => n >= 2,
    20_000,
  );
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/mtls-recorder/wants-token`, 'GET', auth),
    (r) => r.status === 200,
  );
  const refused = await daemon.waitFor((l) => l.msg === 'check request not sent: its secrets could not be resolved' && l.check === 'wants-other');
  assert.match(String(refused.reason), /no Secret named "stolen" in namespace "default"/);
  for (const request of agent.requests) {
    assert.equal(request.config.metadata.name, 'wants-token', 'the check whose secret is elsewhere is never sent');
    assert.deepEqual(request.secrets, [`TOKEN=${VALUE}`], "Sensu Go's CheckRequest.secrets");
  }
  assert.ok(!agent.raw.join('\n').includes(OTHER), "no frame holds the other namespace's value");
  await assertNowhere(v2, auth, daemon.logs);
});
