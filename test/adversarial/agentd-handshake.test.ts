// Hostile and refused agents at the agent WebSocket: wrong credentials, no agent role, unknown namespace, the
// entity limit's 402, too many new connections a second, malformed frames. The daemon answers and keeps running.
import { readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { getJson, eventually, startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { agentSkipReason, startAgent, agentInstanceFor, agentFlags, AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const skip = agentSkipReason();
const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] }, checkbridge: { monitor_interval: 1 } } };
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** Opens a WebSocket as an agent would; resolves with the socket, or the refusal's status and body. */
function connect(
  url: string,
  headers: Record<string, string>,
): Promise<{ ws: WebSocket; headers: Record<string, unknown> } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('upgrade', (response) => resolve({ ws, headers: response.headers }));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

const agentHeaders = (name: string, extra: Record<string, string> = {}) => ({
  'Sensu-AgentName': name,
  'Sensu-Namespace': 'default',
  'Sensu-User': 'agent',
  'Sensu-Subscriptions': 'linux',
  authorization: basic('agent', AGENT_PASSWORD),
  ...extra,
});

test('the real agent is refused with 401 (wrong password), 403 (no agent role) and 404 (unknown namespace), and says so', { skip }, async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/users/viewer`, 'PUT', auth, { username: 'viewer', password: 'viewer-pass-1', groups: [] })).status, 201);
  const cases = [
    { name: 'wrong-pw', flags: agentFlags('not-the-password'), status: 401 },
    { name: 'no-role', flags: ['--user', 'viewer', '--password', 'viewer-pass-1'], status: 403 },
    { name: 'elsewhere', flags: [...agentFlags(), '--namespace', 'nowhere'], status: 404, body: 'namespace "nowhere" not found' },
  ];
  for (const { name, flags, status, body } of cases) {
    const agent = await startAgent(t, agentd, name, flags);
    const line = await agent.waitFor((l) => String(l.error ?? l.msg).includes('handshake failed with status'));
    assert.match(String(line.error ?? line.msg), new RegExp(`handshake failed with status ${status}`), name);
    if (body) assert.ok(String(line.error ?? line.msg).includes(body), `${name}: ${JSON.stringify(line)}`);
    await agent.stop();
  }
  assert.equal((await getJson(`${v2}/health`)).status, 200, 'the daemon keeps running');
  assert.ok(daemon.logs.some((l) => l.msg === 'agent refused: bad credentials'));
});

test('past the entity limit a new agent is refused with 402 (its log says so) while a known agent reconnects', { skip }, async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const known = await startAgent(t, agentd, 'known-1', agentFlags());
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/known-1`, 'GET', auth),
    (r) => r.status === 200,
  );
  // Proxy entities up to the limit (100 without a license): the API refuses the one past it with 402.
  let refused = 0;
  for (let i = 0; i < 120 && refused === 0; i += 1) {
    const reply = await call(`${v2}/api/core/v2/namespaces/default/entities/proxy-${i}`, 'PUT', auth, { entity_class: 'proxy' });
    if (reply.status === 402) refused = i;
  }
  assert.ok(refused > 0, 'the API reached the entity limit');
  const newcomer = await startAgent(t, agentd, 'new-1', agentFlags());
  const line = await newcomer.waitFor((l) => String(l.error ?? l.msg).includes('handshake failed with status'));
  assert.match(String(line.error ?? line.msg), /handshake failed with status 402: entity limit of 100 reached/);
  await known.stop();
  const again = await startAgent(t, agentd, 'known-1', agentFlags());
  await again.waitFor((l) => l.msg === 'successfully connected');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/entities/new-1`, 'GET', auth)).status, 404);
});

test('agent WebSocket: 429 past the new connections a second, 426 for plain HTTP, malformed frames refused and logged', { skip }, async (t) => {
  const files = { 'conf.d/config.json': { ...HOST['conf.d/config.json'], checkbridge: { monitor_interval: 1, agentd: { max_new_per_second: 1 } } } };
  const { v2, agentd, daemon } = await agentInstanceFor(t, files);
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => connect(agentd, agentHeaders(`burst-${i}`))));
  const statuses = answers.map((a) => ('status' in a ? a.status : 101));
  assert.ok(statuses.includes(429), `statuses: ${statuses}`);
  assert.equal(statuses.filter((s) => s === 101).length, 1, `one admitted in the second: ${statuses}`);
  const open = answers.find((a) => 'ws' in a) as { ws: WebSocket; headers: Record<string, unknown> };
  assert.equal(open.headers['content-type'], 'application/json');
  assert.equal(typeof open.headers['backend-id'], 'string');
  const plain = await fetch(agentd.replace('ws://', 'http://'));
  assert.equal(plain.status, 426);
  const { ws } = open;
  ws.send(Buffer.from('no newline here'));
  ws.send(Buffer.from('keepalive\n{not json'));
  ws.send(Buffer.from('shutdown\n{}'));
  await daemon.waitFor((l) => l.msg === 'agent message refused: unknown message type');
  assert.ok(daemon.logs.some((l) => String(l.msg).startsWith('agent message refused: no message type')));
  assert.ok(daemon.logs.some((l) => l.msg === 'agent message refused: the payload is not a JSON object'));
  const name = String(answers.findIndex((a) => 'ws' in a));
  ws.send(
    Buffer.from(
      `keepalive\n${JSON.stringify({ entity: { metadata: { name: `burst-${name}` }, system: { hostname: 'h' } }, check: { timeout: 120, ttl: 0 } })}`,
    ),
  );
  const auth = `Bearer ${await adminToken(v2)}`;
  const entity = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/burst-${name}`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(entity.body.entity_class, 'agent', 'after the malformed frames, the connection still works');
  ws.close();
});

test("without CHECKBRIDGE_AGENT_PASSWORD the agent user gets a generated password, in a 0600 file and no log line: Sensu Go's published default is refused", async (t) => {
  const root = makeTree(HOST);
  const instance = await startInstance(root, [], { CHECKBRIDGE_AGENT_PASSWORD: '' });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  // Off a terminal the password goes to a 0600 file in the state directory, and only the file's path is logged.
  const shown = await instance.daemon.waitFor((l) => String(l.msg).startsWith('created user "agent" with a generated password'));
  const file = String(shown.file);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const password = readFileSync(file, 'utf8').trim();
  assert.ok(password.length >= 20);
  assert.equal(
    instance.daemon.logs.some((l) => JSON.stringify(l).includes(password)),
    false,
    'the password is in no log line',
  );
  const url = `ws://${String((await instance.daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address)}`;
  const published = await connect(url, agentHeaders('default-pw', { authorization: basic('agent', 'P@ssw0rd!') }));
  assert.equal('status' in published ? published.status : 101, 401);
  const generated = await connect(url, agentHeaders('generated-pw', { authorization: basic('agent', password) }));
  assert.ok('ws' in generated, "the generated password is the agent user's");
  generated.ws.close();
});
