// Check requests with secrets to an agent over mutual TLS are resolved at send time: a resolution slower than the next
// request's never delivers an older request after a newer one.
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { makeTestCa } from '../helpers/tls.js';
import { eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentInstanceFor } from '../helpers/sensu-agent.js';
import { recordingAgent } from '../helpers/recording-agent.js';
import { putProvider, putSecret, vaultFor } from './vault-setup.js';

test('a slow vault read: the request it held back is dropped once a newer one went, so issued times never go back', { timeout: 60_000 }, async (t) => {
  const vault = await vaultFor(t, { mounts: { secret: 'v2' } });
  if (!vault) return;
  vault.put('secret', 'agent', { token: 'slow-vault-value-2a7c' });
  const ca = makeTestCa();
  t.after(() => ca.remove());
  const server = ca.issue();
  const cert = ca.issue(['ordered-agent'], { client: true });
  const tls = { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile };
  const { v2, agentd } = await agentInstanceFor(t, {
    'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { agentd: { tls } } },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  await putProvider(v2, auth, vault, 'vault', { rate_limiter: { limit: 100, burst: 100 } });
  await putSecret(v2, auth, 'agent-token', 'vault', 'secret/agent#token');
  const agent = await recordingAgent(agentd, 'ordered-agent', { tls: { ca: ca.caPem, cert: cert.cert, key: cert.key } });
  t.after(() => agent.close());

  // The first read answers after the next requests' reads have: they are sent first.
  vault.mode = 'slow';
  vault.slowMs = 3000;
  const body = {
    metadata: { name: 'ordered' },
    command: 'true',
    interval: 1,
    publish: true,
    subscriptions: ['linux'],
    handlers: [],
    secrets: [{ name: 'TOKEN', secret: 'agent-token' }],
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/checks/ordered`, 'PUT', auth, body)).status, 201);
  await eventually(
    async () => vault.requests.length,
    (n) => n >= 1,
    20_000,
  );
  vault.mode = 'ok';
  const slowRead = vault.requests[0]!.at;
  // Until the slow read has answered and a request after it arrived.
  await eventually(
    async () => agent.requests.length,
    (n) => n >= 4,
    30_000,
  );
  await delay(Math.max(0, slowRead + vault.slowMs + 1000 - Date.now()));
  const issued = agent.requests.map((r) => r.issued as number);
  assert.deepEqual(
    issued,
    [...issued].sort((a, b) => a - b),
    `issued in order: ${issued}`,
  );
  assert.deepEqual(agent.requests[0]!.secrets, ['TOKEN=slow-vault-value-2a7c']);
});

test('a provider that is down keeps the request from the agent, said with the reason, until it answers again', { timeout: 60_000 }, async (t) => {
  const vault = await vaultFor(t, { mounts: { secret: 'v2' } });
  if (!vault) return;
  vault.put('secret', 'agent', { token: 'back-again-value-91d0' });
  vault.mode = 'fail';
  const ca = makeTestCa();
  t.after(() => ca.remove());
  const server = ca.issue();
  const cert = ca.issue(['waiting-agent'], { client: true });
  const tls = { cert_file: server.certFile, key_file: server.keyFile, ca_file: ca.caFile };
  const { v2, agentd, daemon } = await agentInstanceFor(t, {
    'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { agentd: { tls } } },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  await putProvider(v2, auth, vault, 'vault', { max_retries: 0 });
  await putSecret(v2, auth, 'agent-token', 'vault', 'secret/agent#token');
  const agent = await recordingAgent(agentd, 'waiting-agent', { tls: { ca: ca.caPem, cert: cert.cert, key: cert.key } });
  t.after(() => agent.close());
  const body = {
    metadata: { name: 'needs-vault' },
    command: 'true',
    interval: 1,
    publish: true,
    subscriptions: ['linux'],
    handlers: [],
    secrets: [{ name: 'TOKEN', secret: 'agent-token' }],
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/checks/needs-vault`, 'PUT', auth, body)).status, 201);

  const refused = await daemon.waitFor((l) => l.msg === 'check request not sent: its secrets could not be resolved', 20_000);
  assert.deepEqual(refused.members, ['waiting-agent']);
  assert.match(String(refused.reason), /Unable to resolve secret "agent-token" \(TOKEN\) from provider "vault": .*503/);
  assert.equal(agent.requests.length, 0, 'nothing sent while the provider is down');
  vault.mode = 'ok';
  await eventually(
    async () => agent.requests.length,
    (n) => n >= 1,
    20_000,
  );
  assert.deepEqual(agent.requests[0]!.secrets, ['TOKEN=back-again-value-91d0'], 'sent with its value once the provider answers');
});
