// The real agent over mutual TLS, and across a backend restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstance, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { makeTestCa } from '../helpers/tls.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags, AGENT_PASSWORD } from '../helpers/sensu-agent.js';
import { freePort } from '../helpers/net.js';

const skip = agentSkipReason();
const CLIENT = { name: 'cb-host', address: '127.0.0.1', subscriptions: [] };

test("mutual TLS: an agent with a client certificate connects with no password; without one, or with another name's, it is refused", { skip }, async (t) => {
  const ca = makeTestCa();
  t.after(() => ca.remove());
  const server = ca.issue();
  const tlsAgent = ca.issue(['tls-agent'], { client: true });
  const files = {
    'conf.d/config.json': { client: CLIENT, checkbridge: { agentd: { tls: { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile } } } },
  };
  const { v2, agentd, daemon } = await agentInstanceFor(t, files);
  assert.match(agentd, /^wss:\/\//);
  const trusted = ['--trusted-ca-file', ca.caFile, '--keepalive-interval', '1'];
  const withCert = await startAgent(t, agentd, 'tls-agent', [...trusted, '--cert-file', tlsAgent.certFile, '--key-file', tlsAgent.keyFile]);
  await withCert.waitFor((l) => l.msg === 'successfully connected');
  const connected = await daemon.waitFor((l) => l.msg === 'agent connected' && l.agent === 'tls-agent');
  assert.equal(connected.mtls, true, 'the session knows it is mutual TLS (the secrets rule reads it)');
  assert.equal(connected.secrets, 'sent', 'checks to it may carry their secrets');
  const auth = `Bearer ${await adminToken(v2)}`;
  const entity = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/tls-agent`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(entity.body.entity_class, 'agent');
  const noCert = await startAgent(t, agentd, 'no-cert', [...trusted, '--user', 'agent', '--password', AGENT_PASSWORD]);
  await noCert.waitFor((l) => l.msg === 'reconnection attempt failed');
  assert.ok(!noCert.lines.some((l) => l.msg === 'successfully connected'), 'refused in the TLS handshake');
  const otherName = await startAgent(t, agentd, 'impostor', [...trusted, '--cert-file', tlsAgent.certFile, '--key-file', tlsAgent.keyFile]);
  const line = await otherName.waitFor((l) => String(l.error ?? '').includes('handshake failed with status'));
  assert.match(String(line.error), /handshake failed with status 401: the client certificate's common name "tls-agent" is not the agent "impostor"/);
});

test('a backend restart: the agent reconnects by itself, its later events arrive and nothing stored before is lost', { skip }, async (t) => {
  const root = makeTree({ 'conf.d/config.json': { client: CLIENT } });
  const port = await freePort();
  const env = { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD };
  let instance = await startInstance(root, ['--agentd-port', String(port)], env);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const agent = await startAgent(t, `ws://127.0.0.1:${port}`, 'steady-1', [...agentFlags(), '--retry-min', '100ms', '--retry-max', '1s']);
  await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');
  const post = (name: string) =>
    fetch(`http://127.0.0.1:${agent.apiPort}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ check: { metadata: { name }, status: 1, output: name, interval: 60 } }),
    });
  assert.equal((await post('before-restart')).status, 202);
  const eventUrl = (v2: string, check: string) => `${v2}/api/core/v2/namespaces/default/events/steady-1/${check}`;
  let auth = `Bearer ${await adminToken(instance.v2)}`;
  assert.equal(
    (
      await eventually(
        () => call(eventUrl(instance.v2, 'before-restart'), 'GET', auth),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
  const connections = () => agent.lines.filter((l) => l.msg === 'successfully connected').length;
  assert.equal(await instance.daemon.stop('SIGTERM'), 0);
  instance = await startInstance(root, ['--agentd-port', String(port)], env);
  await agent.waitFor(() => connections() >= 2, 30_000);
  assert.equal((await post('after-restart')).status, 202);
  auth = `Bearer ${await adminToken(instance.v2)}`;
  const after = await eventually(
    () => call(eventUrl(instance.v2, 'after-restart'), 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(after.status, 200, 'the event sent after the restart arrived');
  assert.equal((await call(eventUrl(instance.v2, 'before-restart'), 'GET', auth)).status, 200, 'the event stored before is still there');
});
