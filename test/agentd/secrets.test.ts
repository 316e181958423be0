// A v2 CheckConfig's secrets reach the real Sensu Go agent only over mutual TLS: in its check's environment there,
// unset elsewhere (said once per check and agent); a secret that cannot be resolved keeps the request from going.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../helpers/instance.js';
import { makeTestCa } from '../helpers/tls.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags } from '../helpers/sensu-agent.js';
import { putSecret } from '../secrets/vault-setup.js';

const skip = agentSkipReason();
const VALUE = 'agent-token-7d41c2e9';
const ENV = { CB_TEST_AGENT_TOKEN: VALUE };
const CLIENT = { name: 'cb-host', address: '127.0.0.1', subscriptions: [] };
// The check prints a digest of what it saw: the value itself is never printed.
const COMMAND = 'printf %s "${TOKEN:-unset}" | sha256sum | cut -c1-64';
const digest = (text: string) => createHash('sha256').update(text).digest('hex');
import type { Json } from '../../src/json.js';

const check = (name: string, secret: string) => ({
  metadata: { name },
  command: COMMAND,
  interval: 1,
  publish: true,
  subscriptions: ['linux'],
  handlers: [],
  secrets: [{ name: 'TOKEN', secret }],
});

async function putChecks(v2: string, auth: string, checks: Json[]): Promise<void> {
  for (const body of checks) {
    const reply = await call(`${v2}/api/core/v2/namespaces/default/checks/${body.metadata.name}`, 'PUT', auth, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
  }
}

test(
  "over mutual TLS the check request carries the resolved secret and the agent's check sees it; an unresolvable one is not sent",
  { skip, timeout: 120_000 },
  async (t) => {
    const ca = makeTestCa();
    t.after(() => ca.remove());
    const server = ca.issue();
    const cert = ca.issue(['mtls-agent'], { client: true });
    const files = {
      'conf.d/config.json': { client: CLIENT, checkbridge: { agentd: { tls: { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile } } } },
    };
    const { v2, agentd, daemon } = await agentInstanceFor(t, files, [], ENV);
    const auth = `Bearer ${await adminToken(v2)}`;
    await putSecret(v2, auth, 'agent-token', 'env', 'CB_TEST_AGENT_TOKEN');
    await putChecks(v2, auth, [check('with-token', 'agent-token'), check('missing-secret', 'no-such-secret')]);
    const agent = await startAgent(t, agentd, 'mtls-agent', [
      '--trusted-ca-file',
      ca.caFile,
      '--cert-file',
      cert.certFile,
      '--key-file',
      cert.keyFile,
      '--keepalive-interval',
      '1',
      '--subscriptions',
      'linux',
    ]);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    const eventUrl = (name: string) => `${v2}/api/core/v2/namespaces/default/events/mtls-agent/${name}`;

    const ran = await eventually(
      () => call(eventUrl('with-token'), 'GET', auth),
      (r) => r.status === 200,
      30_000,
    );
    assert.equal(ran.body.check.output.trim(), digest(VALUE), "the agent's check had the value in $TOKEN");
    assert.ok(!JSON.stringify(ran.body).includes(VALUE), 'the event the agent sent back holds no value');
    const refused = await daemon.waitFor((l) => l.msg === 'check request not sent: its secrets could not be resolved' && l.check === 'missing-secret');
    assert.deepEqual(refused.members, ['mtls-agent']);
    assert.match(String(refused.reason), /Unable to resolve secret "no-such-secret" \(TOKEN\): no Secret named "no-such-secret"/);
    // Several intervals later the check without its secret has still not run there.
    await eventually(
      () => call(eventUrl('with-token'), 'GET', auth),
      (r) => (r.body.check?.history?.length ?? 0) >= 3,
      30_000,
    );
    assert.equal((await call(eventUrl('missing-secret'), 'GET', auth)).status, 404);
    assert.ok(!daemon.logs.some((l) => l.msg === 'secrets withheld: the agent runs the check without them'), 'nothing withheld over mutual TLS');
    assert.ok(!JSON.stringify(daemon.logs).includes(VALUE), 'the value is in no log line');
  },
);

test(
  'without mutual TLS the agent runs the check without the secret, and the daemon says why once per check and agent',
  { skip, timeout: 120_000 },
  async (t) => {
    const { v2, agentd, daemon } = await agentInstanceFor(t, { 'conf.d/config.json': { client: CLIENT } }, [], ENV);
    const auth = `Bearer ${await adminToken(v2)}`;
    await putSecret(v2, auth, 'agent-token', 'env', 'CB_TEST_AGENT_TOKEN');
    await putChecks(v2, auth, [check('with-token', 'agent-token')]);
    const agent = await startAgent(t, agentd, 'plain-agent', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
    const eventUrl = `${v2}/api/core/v2/namespaces/default/events/plain-agent/with-token`;

    const ran = await eventually(
      () => call(eventUrl, 'GET', auth),
      (r) => (r.body.check?.history?.length ?? 0) >= 3,
      30_000,
    );
    assert.equal(ran.body.check.output.trim(), digest('unset'), "the agent's check ran with $TOKEN unset");
    const withheld = daemon.logs.filter((l) => l.msg === 'secrets withheld: the agent runs the check without them');
    assert.equal(withheld.length, 1, `said once across ${ran.body.check.history.length} runs: ${JSON.stringify(withheld)}`);
    assert.equal(withheld[0].level, 40, 'a warning');
    assert.equal(withheld[0].check, 'with-token');
    assert.equal(withheld[0].agent, 'plain-agent');
    assert.equal(withheld[0].reason, 'not connected over TLS: secrets are sent only over mutual TLS');
    assert.ok(!JSON.stringify(daemon.logs).includes(VALUE), 'the value is in no log line');
  },
);
