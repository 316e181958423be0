// A hostile agent named like a live legacy client: client records are keyed by name, so its keepalive is refused
// (logged) and the legacy client keeps its record, its subscription checks and its results; a stale one is taken over. No real agent is needed:
// the test speaks the agent WebSocket itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, getJson, postJson, startInstance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { AGENT_PASSWORD } from '../helpers/sensu-agent.js';

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

test('an agent named like a live legacy client does not take its record, its checks or its results; a stale record it takes over', async (t) => {
  const root = makeTree({
    'conf.d/config.json': {
      client: { name: 'cb-host', address: '127.0.0.1', subscriptions: ['linux'] },
      checks: { disk: { command: 'echo legacy-ran', subscribers: ['linux'], interval: 1, handlers: [] } },
    },
  });
  const { api, daemon } = await startInstance(root, [], { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD });
  const sockets: WebSocket[] = [];
  t.after(async () => {
    for (const ws of sockets) ws.close();
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const agentd = `ws://${(await daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address}`;
  await eventually(
    () => getJson(`${api}/clients/cb-host`),
    (r) => r.status === 200,
  );
  assert.equal((await postJson(`${api}/clients`, { name: 'db-live', address: '10.0.0.6', subscriptions: [], keepalives: true })).status, 201);

  const connect = async (name: string) => {
    const ws = new WebSocket(agentd, {
      headers: {
        'Sensu-AgentName': name,
        'Sensu-Namespace': 'default',
        'Sensu-User': 'agent',
        'Sensu-Subscriptions': 'linux',
        authorization: basic('agent', AGENT_PASSWORD),
      },
    });
    sockets.push(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(Buffer.from(`keepalive\n${JSON.stringify({ entity: { metadata: { name }, system: { hostname: name } }, check: { timeout: 120, ttl: 0 } })}`));
    return ws;
  };
  const refusedFor = (name: string) => daemon.waitFor((l) => l.msg === "agent keepalive refused: its name is another client's" && l.agent === name);

  const rogue = await connect('cb-host');
  assert.match(String((await refusedFor('cb-host')).reason), /legacy client with live keepalives/);
  // Refused, it is a member of no subscription: no check request reaches it (it would take turns it never reports).
  const requests: string[] = [];
  rogue.on('message', (data: Buffer) => void (data.toString().startsWith('check_request') && requests.push(data.toString())));
  await connect('db-live');
  assert.match(String((await refusedFor('db-live')).reason), /legacy client with live keepalives/);
  for (const name of ['cb-host', 'db-live']) {
    const record = await getJson(`${api}/clients/${name}`);
    assert.notEqual(record.body.entity_class, 'agent', JSON.stringify(record.body));
    assert.equal(record.body.namespace, undefined);
  }

  // Its conf.d result under the legacy client's name is refused; the legacy client's own runs keep coming.
  rogue.send(
    Buffer.from(
      `event\n${JSON.stringify({ check: { metadata: { name: 'disk', annotations: { 'checkbridge.io/conf.d': 'true' } }, output: 'forged', status: 2, executed: Math.floor(Date.now() / 1000), issued: 1 } })}`,
    ),
  );
  await daemon.waitFor((l) => String(l.msg).startsWith('agent result of a legacy check refused') && /is not this agent's/.test(String(l.msg)));
  const after = Math.floor(Date.now() / 1000);
  const run = await eventually(
    () => getJson(`${api}/results/cb-host/disk`),
    (r) => r.status === 200 && r.body.check.executed > after,
  );
  assert.equal(run.body.check.output.trim(), 'legacy-ran');
  const later = Math.floor(Date.now() / 1000) + 1;
  await eventually(
    () => getJson(`${api}/results/cb-host/disk`),
    (r) => r.status === 200 && r.body.check.executed > later,
  );
  assert.deepEqual(requests, [], 'no check request to the refused agent');
  assert.equal((await getJson(`${api}/clients/cb-host`)).body.entity_class, undefined);

  // A host moved from sensu-client to sensu-agent: once its legacy keepalive is past critical, the agent takes the name.
  assert.equal(
    (
      await postJson(`${api}/clients`, {
        name: 'old-host',
        address: '10.0.0.7',
        subscriptions: [],
        keepalives: true,
        keepalive: { thresholds: { warning: 0, critical: 0 } },
      })
    ).status,
    201,
  );
  await connect('old-host');
  await daemon.waitFor((l) => l.msg === 'agent takes over a stale client record of its name' && l.agent === 'old-host');
  assert.equal(
    (
      await eventually(
        () => getJson(`${api}/clients/old-host`),
        (r) => r.body?.entity_class === 'agent',
      )
    ).body.namespace,
    'default',
  );
  assert.equal((await getJson(`${api}/info`)).status, 200, 'the daemon keeps running');
});
