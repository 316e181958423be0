// Every door that writes a v2 entity or event refuses a field of a type Sensu Go's clients cannot decode, naming it:
// the real sensuctl, the judge, still lists entities and events (and dumps every namespace) afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { eventually, startInstance, ADMIN_PASSWORD } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { AGENT_PASSWORD } from '../helpers/sensu-agent.js';
import { sensuctlSkipReason, sensuctlFor, ok } from '../helpers/sensuctl.js';

const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
const skip = sensuctlSkipReason();

test(
  'ill-typed entities and events are refused with the field named, by the v2 API and the agent door; sensuctl keeps working',
  { skip, timeout: 120_000 },
  async (t) => {
    const root = makeTree({ 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } });
    const { v2, daemon } = await startInstance(root, [], { CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD });
    t.after(async () => {
      await daemon.stop('SIGKILL');
      removeTree(root);
    });
    const auth = `Bearer ${await adminToken(v2)}`;
    const ns = `${v2}/api/core/v2/namespaces/default`;
    const refused = async (url: string, method: string, body: unknown, message: string) => {
      const answer = await call(url, method, auth, body);
      assert.deepEqual([answer.status, answer.body?.message], [400, message], `${method} ${url} ${JSON.stringify(body)}`);
    };
    await refused(
      `${ns}/entities/e1`,
      'PUT',
      { entity_class: 'proxy', metadata: { name: 'e1', labels: 'x' } },
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    await refused(
      `${ns}/entities/e2`,
      'PUT',
      { entity_class: 'proxy', metadata: { name: 'e2', labels: { team: 7 } } },
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    );
    await refused(
      `${ns}/entities`,
      'POST',
      { entity_class: 'proxy', metadata: { name: 'e3' }, system: { hostname: 12345 } },
      'json: cannot unmarshal number into Go struct field System.system.hostname of type string',
    );
    await refused(
      `${ns}/entities/e4`,
      'PUT',
      { entity_class: 'proxy', metadata: { name: 'e4' }, subscriptions: 'linux' },
      'json: cannot unmarshal string into Go struct field Entity.subscriptions of type []string',
    );
    await refused(
      `${ns}/entities/e5`,
      'PUT',
      { entity_class: 'proxy', metadata: { name: 'e5' }, system: { network: { interfaces: [{ addresses: [1] }] } } },
      'json: cannot unmarshal number into Go struct field NetworkInterface.system.network.interfaces.addresses of type string',
    );
    const event = (check: Record<string, unknown>, entity: Record<string, unknown> = {}) => ({
      entity: { entity_class: 'proxy', metadata: { name: 'p1' }, ...entity },
      check: { metadata: { name: 'c1' }, status: 2, output: 'x', interval: 60, ...check },
    });
    await refused(
      `${ns}/events/p1/c1`,
      'PUT',
      event({ handlers: { a: 1 } }),
      'json: cannot unmarshal object into Go struct field Check.check.handlers of type []string',
    );
    await refused(
      `${ns}/events`,
      'POST',
      event({}, { metadata: { name: 'p1', labels: 'x' } }),
      'json: cannot unmarshal string into Go struct field ObjectMeta.entity.metadata.labels of type map[string]string',
    );
    await refused(
      `${ns}/events/p1/c1`,
      'PUT',
      event({ interval: '60' }),
      'json: cannot unmarshal string into Go struct field Check.check.interval of type uint32',
    );
    await refused(
      `${ns}/events/p1/c1`,
      'PUT',
      event({ history: [{ status: 'ok' }] }),
      'json: cannot unmarshal string into Go struct field CheckHistory.check.history.status of type uint32',
    );
    // Unknown fields are no type problem; nulls decode as zero values.
    assert.equal(
      (await call(`${ns}/entities/fine`, 'PUT', auth, { entity_class: 'proxy', metadata: { name: 'fine', labels: null }, system: null, extra: { any: 1 } }))
        .status,
      200,
    );

    // The agent door: a keepalive with an ill-typed entity, and an event with an ill-typed check.
    const ws = new WebSocket(`ws://${(await daemon.waitFor((l) => l.msg === 'agent WebSocket listening')).address}`, {
      headers: {
        'Sensu-AgentName': 'typed-1',
        'Sensu-Namespace': 'default',
        'Sensu-User': 'agent',
        'Sensu-Subscriptions': 'linux',
        authorization: basic('agent', AGENT_PASSWORD),
      },
    });
    t.after(() => ws.close());
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(
      Buffer.from(
        `keepalive\n${JSON.stringify({ entity: { metadata: { name: 'typed-1', labels: 'x' }, system: { hostname: 12345 } }, check: { timeout: 120, ttl: 0 } })}`,
      ),
    );
    const keepalive = await daemon.waitFor((l) => l.msg === 'agent keepalive refused: ill-typed entity');
    assert.equal(keepalive.reason, 'entity.system.hostname must be a string');
    const now = Math.floor(Date.now() / 1000);
    ws.send(
      Buffer.from(`event\n${JSON.stringify({ check: { metadata: { name: 'bad' }, status: 2, output: 'x', handlers: { x: 1 }, executed: now, issued: now } })}`),
    );
    const agentEvent = await daemon.waitFor((l) => JSON.stringify(l).includes('event.check.handlers must be a list of strings'));
    assert.ok(agentEvent, 'the agent event is refused naming the field');
    // A well-typed keepalive afterwards registers the agent.
    ws.send(
      Buffer.from(`keepalive\n${JSON.stringify({ entity: { metadata: { name: 'typed-1' }, system: { hostname: 'h1' } }, check: { timeout: 120, ttl: 0 } })}`),
    );
    await eventually(
      () => call(`${ns}/entities/typed-1`, 'GET', auth),
      (r) => r.status === 200,
    );
    assert.equal((await call(`${ns}/events/typed-1/bad`, 'GET', auth)).status, 404);

    const sensuctl = sensuctlFor(t);
    ok(sensuctl, 'configure', '-n', '--url', v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
    const entities = JSON.parse(ok(sensuctl, 'entity', 'list', '--format', 'json')) as { metadata: { name: string } }[];
    assert.deepEqual(
      entities
        .map((e) => e.metadata.name)
        .filter((n) => n !== 'cb-host')
        .sort(),
      ['fine', 'typed-1'],
    );
    JSON.parse(ok(sensuctl, 'event', 'list', '--format', 'json'));
    ok(sensuctl, 'dump', 'all', '--all-namespaces', '--format', 'wrapped-json');
  },
);
