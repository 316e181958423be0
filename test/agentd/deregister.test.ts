// Deregistration on loss: an agent with `deregister` whose keepalive fails while it is not connected goes, with its
// client record, its entity and its events; any other failing or passing keepalive leaves everything in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { deregisterOnLoss } from '../../src/agentd/deregister.js';
import { AgentSession, SessionRegistry } from '../../src/agentd/sessions.js';
import { capturedLogger } from '../helpers/log-capture.js';
import { sqliteIntake } from '../helpers/sqlite-intake.js';

const now = () => Math.floor(Date.now() / 1000);

const agentClient = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  address: name,
  subscriptions: [],
  timestamp: now(),
  entity_class: 'agent',
  namespace: 'default',
  connected: false,
  deregister: true,
  ...fields,
});

const keepalive = (status: number) => ({ name: 'keepalive', status, output: status === 0 ? 'alive' : 'No keepalive', issued: now(), executed: now() });

async function until(done: () => boolean, turns = 5_000): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await nextTurn();
  assert.ok(done(), 'not reached');
}

function setUp(t: Parameters<typeof sqliteIntake>[0]) {
  const { store, intake } = sqliteIntake(t);
  const sessions = new SessionRegistry();
  const { logger, messages } = capturedLogger();
  intake.topics.committed.subscribe(deregisterOnLoss(store, intake, sessions, logger));
  const putEntity = (name: string) => {
    store.resources.putEntity('default', name, { entity_class: 'agent', metadata: { name, namespace: 'default' } });
    store.resources.putEvent('default', name, 'disk', { entity: { metadata: { name } }, check: { metadata: { name: 'disk' }, status: 2 } });
    store.resources.putEvent('default', name, 'cpu', { entity: { metadata: { name } }, check: { metadata: { name: 'cpu' }, status: 1 } });
  };
  return { store, intake, sessions, messages, putEntity };
}

test('an agent with deregister whose keepalive fails while not connected goes: client record, entity and events', async (t) => {
  const { store, intake, messages, putEntity } = setUp(t);
  store.putClient(agentClient('lost'));
  store.putClient(agentClient('neighbour', { deregister: false }));
  putEntity('lost');
  putEntity('neighbour');
  await intake.submit({ client: 'lost', check: keepalive(2), fromServer: true });
  await until(() => messages().includes('agent deregistered: its keepalive failed'));
  assert.equal(store.getClient('lost'), null);
  assert.equal(store.resources.getEntity('default', 'lost'), null);
  assert.deepEqual(store.resources.listEvents('default', 'lost'), []);
  assert.equal(store.getEvent('lost', 'keepalive'), null, 'its keepalive event resolved and removed with it');
  // Another entity's rows are untouched.
  assert.notEqual(store.getClient('neighbour'), null);
  assert.notEqual(store.resources.getEntity('default', 'neighbour'), null);
  assert.equal(store.resources.listEvents('default', 'neighbour').length, 2);
});

test('a passing keepalive, an agent without deregister, a connected agent or a legacy client is not deregistered', async (t) => {
  const { store, intake, sessions, messages, putEntity } = setUp(t);
  const kept = ['passing', 'no-deregister', 'connected', 'legacy-client'];
  store.putClient(agentClient('passing'));
  store.putClient(agentClient('no-deregister', { deregister: false }));
  store.putClient(agentClient('connected'));
  store.putClient({ name: 'legacy-client', address: 'x', subscriptions: [], timestamp: now(), deregister: true });
  store.putClient(agentClient('lost'));
  for (const name of [...kept, 'lost']) putEntity(name);
  const identity = { name: 'connected', namespace: 'default', user: 'agent', subscriptions: [], tls: false, mtls: false };
  // The registry only looks the session up by name: its socket is never used.
  sessions.add(new AgentSession(identity, {} as WebSocket));

  await intake.submit({ client: 'passing', check: keepalive(0), fromServer: true });
  for (const name of kept.slice(1)) await intake.submit({ client: name, check: keepalive(2), fromServer: true });
  // A failing non-keepalive check of a deregistering agent is no loss either.
  await intake.submit({ client: 'lost', check: { ...keepalive(2), name: 'disk' }, fromServer: true });
  // Then one that is deregistered: once it is gone, the others were judged.
  await intake.submit({ client: 'lost', check: keepalive(1), fromServer: true });
  await until(() => store.getClient('lost') === null && store.resources.getEntity('default', 'lost') === null);

  assert.equal(messages().filter((m) => m === 'agent deregistered: its keepalive failed').length, 1);
  for (const name of kept) {
    assert.notEqual(store.getClient(name), null, name);
    assert.notEqual(store.resources.getEntity('default', name), null, name);
    assert.equal(store.resources.listEvents('default', name).length, 2, name);
  }
});
