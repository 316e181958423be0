// A new client's registration event leaves through the intake like every other event: handled, never stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { type IntakeEvent } from '../../src/intake/intake.js';
import type { EventDraft } from '../../src/legacy/index.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';
import { eventually, getJson } from '../helpers/instance.js';
import { agentInstanceFor, AGENT_PASSWORD } from '../helpers/sensu-agent.js';
import { keepEachCommand, keptEvents } from '../helpers/kept-events.js';

test('intake: a registration event reaches the registration listeners only, and nothing is stored', (t) => {
  const { store, intake } = sqliteIntake(t);
  const events: IntakeEvent[] = [];
  const registrations: EventDraft[] = [];
  intake.onEvent((emitted) => events.push(emitted));
  intake.onRegistration((event) => registrations.push(event));
  const registration = {
    id: 'r-1',
    client: { name: 'new-one' },
    check: { name: 'registration', status: 1, handler: 'registration' },
    occurrences: 1,
    action: 'create',
  } as unknown as EventDraft;
  intake.submitRegistration(registration);
  assert.deepEqual(registrations, [registration], 'handed on at once, as it is');
  assert.deepEqual(events, [], 'not an event of the store');
  assert.equal(store.getEvent('new-one', 'registration'), null);
});

test('a new Sensu Go agent and the in-process client each raise one registration event to the registration handler; none is stored', async (t) => {
  const root = makeTree({});
  const record = join(root, 'handled');
  const { api, agentd } = await agentInstanceFor(t, {
    'conf.d/config.json': {
      client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] },
      handlers: { registration: { type: 'pipe', command: keepEachCommand(record) } },
    },
  });
  t.after(() => removeTree(root));
  const headers = {
    'Sensu-AgentName': 'newcomer',
    'Sensu-Namespace': 'default',
    'Sensu-User': 'agent',
    'Sensu-Subscriptions': 'linux',
    authorization: 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64'),
  };
  const ws = await new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(agentd, { headers });
    socket.once('message', () => resolve(socket));
    socket.once('error', reject);
  });
  t.after(() => ws.terminate());
  const keepalive = `keepalive\n${JSON.stringify({ entity: { metadata: { name: 'newcomer' }, entity_class: 'agent' }, check: { metadata: { name: 'keepalive' }, timeout: 120 } })}`;
  ws.send(keepalive);
  const handled = async () => keptEvents<{ client: { name: string }; check: Record<string, unknown> }>(record);
  // The in-process client's own keepalive registers it too: both doors reach the one handler.
  const events = await eventually(handled, (all) => all.some((e) => e.client.name === 'newcomer') && all.some((e) => e.client.name === 'cb-host'), 30_000);
  for (const name of ['newcomer', 'cb-host']) {
    const mine = events.filter((e) => e.client.name === name);
    assert.equal(mine.length, 1, name);
    assert.deepEqual([mine[0]!.check.name, mine[0]!.check.output, mine[0]!.check.status], ['registration', 'new client registration', 1]);
  }
  for (const name of ['newcomer', 'cb-host']) assert.equal((await getJson(`${api}/events/${name}/registration`)).status, 404, `${name}: handled, not stored`);
});
