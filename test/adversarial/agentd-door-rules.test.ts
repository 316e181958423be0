// The agent door keeps every other door's rules: names either API refuses (and a header given twice) are refused at
// the handshake, a frame nested past the depth rule is refused, and an event's proxy_entity_name names only a proxy
// entity, never another agent nor the server's own client. No real agent is needed: the test speaks the WebSocket itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';

const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } };
const AUTH = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');
type Headers = Record<string, string | string[]>;

/** Opens an agent's WebSocket: the socket, or the refusal's status and body. */
function connect(url: string, headers: Headers): Promise<{ ws: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: headers as Record<string, string> });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

const headersOf = (name: string | string[], namespace: string | string[] = 'default'): Headers => ({
  'Sensu-AgentName': name,
  'Sensu-Namespace': namespace,
  'Sensu-User': 'agent',
  authorization: AUTH,
});
const keepalive = (name: string, extra: Record<string, unknown> = {}) =>
  Buffer.from(`keepalive\n${JSON.stringify({ entity: { metadata: { name }, system: { hostname: name, ...extra } }, check: { timeout: 120, ttl: 0 } })}`);

async function agentOnline(agentd: string, v2: string, auth: string, name: string): Promise<WebSocket> {
  const opened = await connect(agentd, headersOf(name));
  assert.ok('ws' in opened, `${name} connects`);
  opened.ws.send(keepalive(name));
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/${name}`, 'GET', auth),
    (r) => r.status === 200,
  );
  return opened.ws;
}

test('agent names and namespaces either API refuses, and a name header given twice, are refused at the handshake (400); nothing is stored', async (t) => {
  const { v2, api, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const badNames = ['a/b', '..', '.', 'web 1', 'caf\u00e9', 'web-1, db-1', 'x'.repeat(10_000), 'has:colon'];
  for (const name of badNames) {
    const answer = await connect(agentd, headersOf(name));
    if ('ws' in answer) answer.ws.close();
    assert.equal('status' in answer ? answer.status : 101, 400, `name ${JSON.stringify(name.slice(0, 40))}`);
    assert.match((answer as { body: string }).body, /cannot contain spaces or special characters|at most 255 characters|cannot be \. or \.\./);
  }
  const twice = await connect(agentd, headersOf(['dup-a', 'dup-b']));
  assert.equal('status' in twice ? twice.status : 101, 400, 'two Sensu-AgentName headers');
  assert.match((twice as { body: string }).body, /Sensu-AgentName header must be given once/);
  const same = await connect(agentd, headersOf(['dup-a', 'dup-a']));
  assert.equal('status' in same ? same.status : 101, 400, 'the same name twice');
  const namespaces = await connect(agentd, headersOf('ns-agent', ['default', 'team-b']));
  assert.equal('status' in namespaces ? namespaces.status : 101, 400, 'two Sensu-Namespace headers');
  const badNamespace = await connect(agentd, headersOf('ns-agent', 'de fault'));
  assert.equal('status' in badNamespace ? badNamespace.status : 101, 400, 'a namespace no API could create');
  assert.match((badNamespace as { body: string }).body, /namespace name must be 1 to 255 letters, digits, _ \. - : \(not \. or \.\.\)/);
  // The name rule of every v2 door: `..` names no namespace the API could create (no URL can name it).
  const dotNamespace = await connect(agentd, headersOf('ns-agent', '..'));
  if ('ws' in dotNamespace) dotNamespace.ws.close();
  assert.equal('status' in dotNamespace ? dotNamespace.status : 101, 400, 'the namespace ..');
  const entities = await call(`${v2}/api/core/v2/namespaces/default/entities`, 'GET', auth);
  assert.deepEqual(
    entities.body.map((e: { metadata: { name: string } }) => e.metadata.name),
    ['cb-host'],
    'no entity stored',
  );
  const clients = await getJson(`${api}/clients`);
  assert.deepEqual(
    clients.body.map((c: { name: string }) => c.name),
    ['cb-host'],
    'no client record stored',
  );
  // A good name still connects after all of them.
  (await agentOnline(agentd, v2, auth, 'good-1.example_host')).close();
});

test('a keepalive nested past the depth rule is refused and logged, not stored; the connection keeps working', async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const opened = await connect(agentd, headersOf('deep-1'));
  assert.ok('ws' in opened);
  t.after(() => opened.ws.close());
  const deep = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
  opened.ws.send(Buffer.from(`keepalive\n{"entity":{"metadata":{"name":"deep-1"},"system":{"hostname":"h","deep":${deep}}},"check":{"timeout":120,"ttl":0}}`));
  const refused = await daemon.waitFor((l) => String(l.msg).startsWith('agent message refused: the payload is JSON nested deeper than 100 levels'));
  assert.equal(refused.agent, 'deep-1');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/entities/deep-1`, 'GET', auth)).status, 404, 'not stored');
  opened.ws.send(keepalive('deep-1'));
  await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/entities/deep-1`, 'GET', auth),
    (r) => r.status === 200,
  );
});

test("an agent event's proxy_entity_name lands only on a proxy entity: never another agent, the server's own client, nor a keepalive elsewhere", async (t) => {
  const { v2, agentd, daemon } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const sender = await agentOnline(agentd, v2, auth, 'px-sender');
  const other = await agentOnline(agentd, v2, auth, 'px-other');
  t.after(() => [sender, other].forEach((ws) => ws.close()));
  assert.equal(
    (
      await call(`${v2}/api/core/v2/namespaces/default/entities/router-1`, 'PUT', auth, {
        entity_class: 'proxy',
        metadata: { name: 'router-1', namespace: 'default' },
      })
    ).status,
    200,
  );
  const now = Math.floor(Date.now() / 1000);
  const send = (proxy: string, check: string) =>
    sender.send(
      Buffer.from(
        `event\n${JSON.stringify({ entity: { metadata: { name: 'px-sender', namespace: 'default' }, entity_class: 'agent' }, check: { metadata: { name: check, namespace: 'default' }, proxy_entity_name: proxy, output: 'forged', status: 2, interval: 60, executed: now, issued: now } })}`,
      ),
    );
  const refusedFor = (proxy: string, check: string) =>
    daemon.waitFor((l) => String(l.msg).startsWith(`agent event refused: check.proxy_entity_name "${proxy}"`) && l.check === check);
  send('px-other', 'disk');
  assert.match(String((await refusedFor('px-other', 'disk')).msg), /names an entity of class "agent"/);
  send('cb-host', 'disk');
  assert.match(String((await refusedFor('cb-host', 'disk')).msg), /names a client with keepalives/);
  send('px-other', 'keepalive');
  await refusedFor('px-other', 'keepalive');
  send('router-1', 'keepalive');
  await refusedFor('router-1', 'keepalive');
  send('router-1', 'disk');
  const landed = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/router-1/disk`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.equal(landed.body.entity.entity_class, 'proxy');
  for (const [entity, check] of [
    ['px-other', 'disk'],
    ['cb-host', 'disk'],
    ['router-1', 'keepalive'],
  ]) {
    assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/${entity}/${check}`, 'GET', auth)).status, 404, `${entity}/${check}`);
  }
  const keepaliveOfOther = await call(`${v2}/api/core/v2/namespaces/default/events/px-other/keepalive`, 'GET', auth);
  assert.notEqual(keepaliveOfOther.body?.check?.output, 'forged', "the other agent's keepalive state is its own");
  assert.equal(
    (await call(`${v2}/api/core/v2/namespaces/default/entities/cb-host`, 'GET', auth)).body.entity_class,
    'agent',
    "the server's own client is still what it was",
  );
});

test("an agent event's check naming another namespace is stored as the agent's namespace's, and only there", async (t) => {
  const { v2, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  assert.equal((await call(`${v2}/api/core/v2/namespaces/team-b`, 'PUT', auth, { name: 'team-b' })).status, 201);
  const sender = await agentOnline(agentd, v2, auth, 'ns-sender');
  t.after(() => sender.close());
  const now = Math.floor(Date.now() / 1000);
  const entity = { metadata: { name: 'ns-sender', namespace: 'team-b' }, entity_class: 'agent' };
  const check = { metadata: { name: 'disk', namespace: 'team-b' }, output: 'foreign', status: 1, interval: 60, executed: now };
  sender.send(Buffer.from(`event\n${JSON.stringify({ entity, check, metadata: { namespace: 'team-b' } })}`));
  const stored = await eventually(
    () => call(`${v2}/api/core/v2/namespaces/default/events/ns-sender/disk`, 'GET', auth),
    (r) => r.status === 200,
  );
  assert.deepEqual(
    [stored.body.metadata.namespace, stored.body.entity.metadata.namespace, stored.body.check.metadata.namespace],
    ['default', 'default', 'default'],
    'every namespace the event carries is the one it is stored in',
  );
  assert.deepEqual((await call(`${v2}/api/core/v2/namespaces/team-b/events`, 'GET', auth)).body, [], 'nothing in the namespace named');
});
